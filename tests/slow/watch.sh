# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# The watcher end to end, with no network: a git tree made from Debian's
# 6.1 source with slabbench's patches (as tests/slow/bisect.sh makes
# one). watch follows its branch: a harmless commit is good; then three
# commits arrive, the first of which slows SLUB's kmem_cache_alloc():
# watch finds the regression, bisects it to that commit, and writes one
# mail, To and Cc from the tree's get_maintainer.pl and MAINTAINERS, with
# a subject naming the commit, sent to an SMTP sink on 127.0.0.1 that the
# test starts and stops. A second call sends nothing again. The series
# is then dropped from the branch (good against the regressed tip) and
# merged back, as linux-next drops and takes back a tree: the same
# regression, bisected to the same commit, is found reported in the
# state and not mailed again; a new one, in kmem_cache_free(), is. A
# commit that does not build is recorded, not reported; the first mail's
# reproducer runs as it is and reproduces the regression.
. tests/e2e/lib.sh

# 19 here and the Python checks' 10 of each of the two copies of the mail.
plan 39

L=$TMP/linux
G=(git -C "$L" -c user.name=slabbench -c user.email=slabbench@example.org)
mkdir -p "$L"
tar -xJf /usr/src/linux-source-6.1.tar.xz -C "$L" --strip-components=1
for p in vm/patches/6.1/*.patch; do
	patch -d "$L" -p1 -s -N --no-backup-if-mismatch <"$p" >/dev/null
done
git init -q -b master "$L"
git -C "$L" config gc.auto 0
"${G[@]}" add -A -f
"${G[@]}" commit -qm "Debian's linux-source-6.1 with slabbench's patches"
echo "A line that builds nothing." >>"$L/Documentation/mm/slub.rst"
"${G[@]}" commit -qam "Documentation: a harmless change"

cat >"$TMP/fast.json" <<'JSON'
{ "name": "fast", "tests": [
  { "test": "fastpath", "params": { "api": "cache", "size": 64, "iters": 5000, "repeats": 3 } } ] }
JSON

# The sink, and git send-email pointed at it by the environment only.
python3 tests/e2e/smtp-sink.py "$TMP/sink" &
sink=$!
trap 'kill $sink 2>/dev/null; rm -rf "$TMP"' EXIT
for _ in $(seq 50); do [ -f "$TMP/sink/port" ] && break; sleep 0.1; done
port=$(cat "$TMP/sink/port")
export GIT_CONFIG_COUNT=4 \
	GIT_CONFIG_KEY_0=sendemail.smtpServer GIT_CONFIG_VALUE_0=127.0.0.1 \
	GIT_CONFIG_KEY_1=sendemail.smtpServerPort GIT_CONFIG_VALUE_1="$port" \
	GIT_CONFIG_KEY_2=user.name GIT_CONFIG_VALUE_2="slabbench watch" \
	GIT_CONFIG_KEY_3=user.email GIT_CONFIG_VALUE_3=watch@example.org

sbwatch() {
	"$SB" watch --tree="$L" --branch=master --baseline=HEAD~1 --state="$TMP/state" \
		--workload="$TMP/fast.json" --threshold=10 --send=git
}

# watch_call N WHAT: call N of watch, its output in $TMP/wN.out and
# wN.err, and how long it took; returns watch's status.
watch_call() {
	local start=$SECONDS rc=0

	sbwatch >"$TMP/w$1.out" 2>"$TMP/w$1.err" || rc=$?
	echo "# watch $1 ($2): $((SECONDS - start)) s"
	return $rc
}

# shown_unless N PATTERN: call N's output and the end of its log, where
# the output lacks PATTERN, to say why a check failed.
shown_unless() {
	grep -q "$2" "$TMP/w$1.out" || { cat "$TMP/w$1.out"; tail -n 30 "$TMP/w$1.err"; }
}

watch_call 1 "baseline and a harmless commit"
check "watch 1: the harmless commit is good" grep -q "is good against" "$TMP/w1.out"
grep -q "is good" "$TMP/w1.out" || tail -n 30 "$TMP/w1.err"
check "watch 1: the state's last good commit is the tip" \
	jqt "$TMP/state/watch.json" ".last_good == \"$("${G[@]}" rev-parse HEAD)\""

slow=$(commit_slowdown)
echo "Another line that builds nothing." >>"$L/Documentation/mm/slub.rst"
"${G[@]}" commit -qam "Documentation: another harmless change"

watch_call 2 "three commits, one slow"
check "watch 2: bisects to exactly the slowing commit" \
	grep -q "^watch: ${slow:0:12} is the first bad commit" "$TMP/w2.out"
shown_unless 2 "^watch: .* is the first bad commit"
mails=("$TMP"/state/outbox/*.mbox)
check "watch 2: one mail in the outbox" test "${#mails[@]}" -eq 1 -a -f "${mails[0]}"
check "watch 2: the sink received one message" test -f "$TMP/sink/1.eml" -a ! -f "$TMP/sink/2.eml"
check "watch 2: its lines fit in 72 columns" \
	bash -c "! awk 'length > 72' '${mails[0]}' | grep -q ."

# The mail as a reader's parser sees it: the one in the outbox and the
# one the sink received.
cat >"$TMP/check.py" <<'PY'
import email, email.policy, mailbox, sys
path, slow, kind = sys.argv[1:4]
if kind == "mbox":
    raw = list(mailbox.mbox(path))[0].as_bytes()
else:
    raw = open(path, "rb").read()
m = email.message_from_bytes(raw, policy=email.policy.default)
to = [a.addr_spec for a in m["To"].addresses]
cc = [a.addr_spec for a in m["Cc"].addresses]
subject = str(m["Subject"])
names = [p.get_filename() for p in m.iter_attachments()]
body = m.get_body(preferencelist=("plain",)).get_content()
checks = {
    "To is the list MAINTAINERS names for mm/slub.c": "linux-mm@kvack.org" in to,
    "Cc holds SLAB ALLOCATOR's maintainers": "vbabka@suse.cz" in cc and "akpm@linux-foundation.org" in cc,
    "Cc holds the commit's author": "slabbench@example.org" in cc,
    "no list in Cc, no person in To": "linux-mm@kvack.org" not in cc and "vbabka@suse.cz" not in to,
    "the subject names tree, commit and title": subject.startswith("[slabbench] [linux:master] %s (\"mm/slub: spin a little in kmem_cache_alloc()\"): " % slow[:12]),
    "the subject names a regression with its size": subject.endswith("% regression") and "+" in subject,
    "it has a Message-Id": m["Message-Id"].startswith("<"),
    "attachments: report, comparison, config.diff, configs, reproduce.sh, results": sorted(names) == sorted(["report.txt", "compare.txt", "config.diff", "config-base.gz", "config-new.gz", "reproduce.sh", "results-base.json.gz", "results-new.json.gz"]),
    "the body has the tags": "| Reported-by: slabbench watch <watch@example.org>" in body,
    "the body names the commit": slow[:12] in body,
}
for name, ok in checks.items():
    print("%s - %s: %s" % ("ok" if ok else "not ok", kind, name))
if kind == "mbox":
    for p in m.iter_attachments():
        if p.get_filename() == "reproduce.sh":
            open(sys.argv[4], "wb").write(p.get_payload(decode=True))
PY
python3 "$TMP/check.py" "${mails[0]}" "$slow" mbox "$TMP/reproduce.sh"
[ -f "$TMP/sink/1.eml" ] && python3 "$TMP/check.py" "$TMP/sink/1.eml" "$slow" sink
check "the sink's recipients are To and Cc" \
	bash -c "grep -q 'linux-mm@kvack.org' '$TMP/sink/1.rcpt' && grep -q 'vbabka@suse.cz' '$TMP/sink/1.rcpt'"

watch_call 3 "nothing new"
check "watch 3: nothing new, nothing sent" \
	bash -c "grep -q 'nothing new' '$TMP/w3.out' && [ ! -f '$TMP/sink/2.eml' ]"

# The series dropped: the tip is faster than the last good (regressed)
# commit, which is no regression.
regressed=$("${G[@]}" rev-parse HEAD)
"${G[@]}" reset -q --hard HEAD~3
# Another file than the series touches: the merge below is clean.
echo "A line that builds nothing." >>"$L/README"
"${G[@]}" commit -qam "README: a change while the series is out"
dropped=$("${G[@]}" rev-parse HEAD)
watch_call 4 "the series dropped"
check "watch 4: the branch without the series is good against the regressed tip" \
	grep -q "^watch: ${dropped:0:12} is good against ${regressed:0:12}" "$TMP/w4.out"
shown_unless 4 "is good"

# The series merged back: its regression is the one mailed already.
"${G[@]}" merge -q --no-ff -m "Merge the slab series again" "$regressed"
merged=$("${G[@]}" rev-parse HEAD)
watch_call 5 "the series merged back"
check "watch 5: the regression is bisected to the same commit, reported already" \
	grep -q "^watch: ${slow:0:12} was reported already" "$TMP/w5.out"
shown_unless 5 "reported already"
check "watch 5: no second mail written or sent" \
	bash -c "[ \$(ls '$TMP'/state/outbox/*.mbox | wc -l) -eq 1 ] && [ ! -f '$TMP/sink/2.eml' ]"
check "watch 5: the state holds the one report; the merge is the regressed level" \
	jqt "$TMP/state/watch.json" "(.reported | length == 1 and .[0].commit == \"$slow\") and
		.commits[-1].commit == \"$merged\" and .commits[-1].verdict == \"regressed\" and
		.last_good == \"$merged\""

# A new regression on top: mailed.
sed -i '/^void kmem_cache_free(struct kmem_cache \*s, void \*x)$/,/^}$/{
	s/^{$/{\n\tint i;\n\n\tfor (i = 0; i < 64; i++)\n\t\tbarrier();/
}' "$L/mm/slub.c"
"${G[@]}" commit -qam "mm/slub: spin a little in kmem_cache_free()"
slow2=$("${G[@]}" rev-parse HEAD)
watch_call 6 "a new regression"
check "watch 6: a new regression is bisected to its commit" \
	grep -q "^watch: ${slow2:0:12} is the first bad commit" "$TMP/w6.out"
shown_unless 6 "is the first bad commit"
check "watch 6: and mailed: a second mail in the outbox, a second message sent" \
	bash -c "[ \$(ls '$TMP'/state/outbox/*.mbox | wc -l) -eq 2 ] && [ -f '$TMP/sink/2.eml' ] && [ ! -f '$TMP/sink/3.eml' ]"
# The subject is folded at 72 columns: read it as the parser does.
check "watch 6: the second message's subject names the new commit" \
	python3 -c 'import email, sys
s = " ".join(str(email.message_from_binary_file(open(sys.argv[1], "rb"))["Subject"]).split())
sys.exit(sys.argv[2][:12] + " (\"mm/slub: spin a little in kmem_cache_free()\")" not in s)' \
	"$TMP/sink/2.eml" "$slow2"

echo "int this is not C;" >>"$L/mm/slub.c"
"${G[@]}" commit -qam "mm/slub: a change that does not build"
broken=$("${G[@]}" rev-parse HEAD)
watch_call 7 "a commit that does not build"
rc=$?
check "watch 7: the broken commit is recorded, exit 0" \
	bash -c "[ $rc -eq 0 ] && jq -e '.commits[] | select(.commit == \"$broken\") | .verdict == \"broken\"' '$TMP/state/watch.json' >/dev/null"
check "watch 7: nothing mailed or sent for it" \
	bash -c "[ \$(ls '$TMP'/state/outbox/*.mbox | wc -l) -eq 2 ] && [ ! -f '$TMP/sink/3.eml' ]"
check "watch 7: two regressions reported in the state, each once" \
	jqt "$TMP/state/watch.json" "[.reported[].commit] == [\"$slow\", \"$slow2\"]"

# The reproducer from the mail, as it is: the kernels are cached by now.
start=$SECONDS
(cd "$TMP" && SLABBENCH=$SB bash reproduce.sh >repro.out 2>repro.err)
echo "# reproduce.sh: $((SECONDS - start)) s"
# The report follows run's summary in its output. Its subject is folded
# at 72 columns, as a mail's is, and names the change, then its kind:
# "... +12.3% regression (TCG time, ...)".
check "reproduce.sh runs as it is and reports the regression" \
	python3 -c 'import email, re, sys
out = open(sys.argv[1]).read()
at = out.find("Subject:")
s = " ".join(str(email.message_from_string(out[at:])["Subject"]).split()) if at >= 0 else ""
sys.exit(not re.search(r" [+][^ ]+ regression [(]", s))' "$TMP/repro.out"
grep -m 3 -A 2 "^Subject:" "$TMP/repro.out" | sed 's/^/# /'
grep -q "regression" "$TMP/repro.out" || tail -n 20 "$TMP/repro.err"
kill $sink

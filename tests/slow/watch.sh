# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# The watcher end to end, with no network: a git tree made from Debian's
# 6.1 source with slabbench's patches (as tests/slow/bisect.sh makes
# one). watch follows its branch: a harmless commit is good; then three
# commits arrive, the first of which slows SLUB's kmem_cache_alloc():
# watch finds the regression, bisects it to that commit, and writes one
# mail, To and Cc from the tree's get_maintainer.pl and MAINTAINERS, with
# a subject naming the commit, sent to an SMTP sink on 127.0.0.1 that the
# test starts and stops. A second call sends nothing again; a commit
# that does not build is recorded, not reported; the mail's reproducer
# runs as it is and reproduces the regression.
. tests/e2e/lib.sh

# 12 here and the Python checks' 10 of each of the two copies of the mail.
plan 32

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

start=$SECONDS
sbwatch >"$TMP/w1.out" 2>"$TMP/w1.err"
echo "# watch 1 (baseline and a harmless commit): $((SECONDS - start)) s"
check "watch 1: the harmless commit is good" grep -q "is good against" "$TMP/w1.out"
grep -q "is good" "$TMP/w1.out" || tail -n 30 "$TMP/w1.err"
check "watch 1: the state's last good commit is the tip" \
	jqt "$TMP/state/watch.json" ".last_good == \"$("${G[@]}" rev-parse HEAD)\""

sed -i '/^void \*kmem_cache_alloc(struct kmem_cache \*s, gfp_t gfpflags)$/,/^}$/{
	s/^{$/{\n\tint i;\n\n\tfor (i = 0; i < 64; i++)\n\t\tbarrier();/
}' "$L/mm/slub.c"
"${G[@]}" commit -qam "mm/slub: spin a little in kmem_cache_alloc()"
slow=$("${G[@]}" rev-parse HEAD)
echo "/* A comment that changes no code. */" >>"$L/mm/slab.c"
"${G[@]}" commit -qam "mm/slab: a harmless change"
echo "Another line that builds nothing." >>"$L/Documentation/mm/slub.rst"
"${G[@]}" commit -qam "Documentation: another harmless change"

start=$SECONDS
sbwatch >"$TMP/w2.out" 2>"$TMP/w2.err"
echo "# watch 2 (three commits, one slow): $((SECONDS - start)) s"
check "watch 2: bisects to exactly the slowing commit" \
	grep -q "^watch: ${slow:0:12} is the first bad commit" "$TMP/w2.out"
grep -q "^watch: .* is the first bad commit" "$TMP/w2.out" || { cat "$TMP/w2.out"; tail -n 30 "$TMP/w2.err"; }
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
    "attachments: config.diff, configs, reproduce.sh, results": sorted(names) == sorted(["config.diff", "config-base.gz", "config-new.gz", "reproduce.sh", "results-base.json.gz", "results-new.json.gz"]),
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

start=$SECONDS
sbwatch >"$TMP/w3.out" 2>"$TMP/w3.err"
echo "# watch 3 (nothing new): $((SECONDS - start)) s"
check "watch 3: nothing new, nothing sent" \
	bash -c "grep -q 'nothing new' '$TMP/w3.out' && [ ! -f '$TMP/sink/2.eml' ]"

echo "int this is not C;" >>"$L/mm/slub.c"
"${G[@]}" commit -qam "mm/slub: a change that does not build"
broken=$("${G[@]}" rev-parse HEAD)
start=$SECONDS
sbwatch >"$TMP/w4.out" 2>"$TMP/w4.err"
rc=$?
echo "# watch 4 (a commit that does not build): $((SECONDS - start)) s"
check "watch 4: the broken commit is recorded, exit 0" \
	bash -c "[ $rc -eq 0 ] && jq -e '.commits[] | select(.commit == \"$broken\") | .verdict == \"broken\"' '$TMP/state/watch.json' >/dev/null"
check "watch 4: nothing mailed or sent for it" \
	bash -c "[ \$(ls '$TMP'/state/outbox/*.mbox | wc -l) -eq 1 ] && [ ! -f '$TMP/sink/2.eml' ]"
check "watch 4: reported once in the state" jqt "$TMP/state/watch.json" '.reported | length == 1'

# The reproducer from the mail, as it is: the kernels are cached by now.
start=$SECONDS
(cd "$TMP" && SLABBENCH=$SB bash reproduce.sh >repro.out 2>repro.err)
echo "# reproduce.sh: $((SECONDS - start)) s"
check "reproduce.sh runs as it is and reports the regression" \
	grep -q "^Subject: .* regression$" "$TMP/repro.out"
grep -q "regression" "$TMP/repro.out" || tail -n 20 "$TMP/repro.err"
kill $sink

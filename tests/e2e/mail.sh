# SPDX-License-Identifier: GPL-2.0
# kernels: slab slub
# shellcheck shell=bash
# report --mbox with no kernel build: the comparison of the recorded
# SLAB and SLUB runs in tests/data as a mail, To and Cc from Debian 6.1's
# own get_maintainer.pl and MAINTAINERS, read back by Python's email
# package (a body of at most 150 lines, the whole report attached), dry-run through git send-email, and sent through it to an SMTP
# sink on 127.0.0.1 that this test starts and stops. A variant from a
# patch series answers the series' cover letter.
. tests/e2e/lib.sh

# 21 here and 16 printed by the Python checks of the mails.
plan 40

D=tests/data
# The subject unfolded, as a reader sees it.
subject() {
	python3 -c 'import email, sys
print(email.message_from_binary_file(open(sys.argv[1], "rb"))["Subject"].replace("\n", ""))' "$1"
}
K=$TMP/linux
mkdir -p "$K"
tar -xJf /usr/src/linux-source-6.1.tar.xz -C "$K" --strip-components=1 \
	linux-source-6.1/scripts/get_maintainer.pl linux-source-6.1/MAINTAINERS \
	linux-source-6.1/mm/slab.c linux-source-6.1/mm/slub.c \
	linux-source-6.1/mm/slab_common.c linux-source-6.1/mm/slab.h
export HOME=$TMP/home
mkdir -p "$HOME"
git config --global user.name "Slab Bench"
git config --global user.email "bench@example.org"

"$SB" report --mbox="$TMP/a.mbox" --maintainers-tree="$K" --cc="Extra Person <extra@example.org>" \
	--closes=https://example.org/r/1 "$D/report-slab.json" "$D/report-slub.json" 2>"$TMP/a.err"
check "report --mbox exits 0" test -s "$TMP/a.mbox"
[ -s "$TMP/a.mbox" ] || cat "$TMP/a.err"

# The mail as a reader's parser sees it.
cat >"$TMP/check.py" <<'PY'
import email, email.policy, gzip, mailbox, sys
path, data = sys.argv[1:3]
msgs = list(mailbox.mbox(path))
m = email.message_from_bytes(msgs[0].as_bytes(), policy=email.policy.default)
raw = open(path, "rb").read().decode("utf-8")
to = [a.addr_spec for a in m["To"].addresses]
cc = [a.addr_spec for a in m["Cc"].addresses]
body = m.get_body(preferencelist=("plain",)).get_content()
att = {p.get_filename(): p for p in m.iter_attachments()}
res = gzip.decompress(att["results-new.json.gz"].get_payload(decode=True)) if "results-new.json.gz" in att else b""
checks = {
    "one message in the mbox": len(msgs) == 1,
    "From from git config": str(m["From"]) == "Slab Bench <bench@example.org>",
    "To: the lists MAINTAINERS names for mm/slub.c and mm/slab.c": to == ["linux-mm@kvack.org", "linux-kernel@vger.kernel.org"],
    "Cc: SLAB ALLOCATOR's people, and --cc": "vbabka@suse.cz" in cc and "cl@linux.com" in cc and cc[0] == "extra@example.org",
    "no list in Cc, no person in To": not set(to) & set(cc),
    "the subject in the robot's form": str(m["Subject"]).startswith("[slabbench] [linux-6.1.192] slub vs slab: "),
    "a Message-Id": str(m["Message-Id"]).startswith("<") and "@example.org>" in str(m["Message-Id"]),
    "a Date": m["Date"].datetime is not None,
    "multipart/mixed": m.get_content_type() == "multipart/mixed",
    "the body leads with the report's summary": body.startswith("slabbench compared slub (SLUB 6.1.192, CPU slabs and per-CPU partial"),
    "the body: at most 150 lines": len(body.splitlines()) <= 150,
    "the tags, then how to reproduce": 0 < body.find("| Reported-by: Slab Bench <bench@example.org>\n| Closes: https://example.org/r/1\n") < body.find("To reproduce"),
    "attachments: the report, the comparison, config.diff, reproduce.sh, both results": sorted(att) == ["compare.txt", "config.diff", "report.txt", "reproduce.sh", "results-base.json.gz", "results-new.json.gz"],
    "report.txt is the report as slabbench report prints it": att["report.txt"].get_content().startswith("Subject: [slabbench] slub vs slab: "),
    "config.diff holds the allocator lines' difference": "+CONFIG_SLUB=y\n" in att["config.diff"].get_content() and "-CONFIG_SLAB=y\n" in att["config.diff"].get_content(),
    "results-new.json.gz is the results file, byte for byte": res == open(data, "rb").read(),
    "every line but a tag within 72 columns": all(len(l) <= 72 for l in raw.split("\n") if not l.startswith("| ")),
}
for name, ok in checks.items():
    print("%s - %s" % ("ok" if ok else "not ok", name))
open(sys.argv[3], "wb").write(att["reproduce.sh"].get_payload(decode=True))
PY
python3 "$TMP/check.py" "$TMP/a.mbox" "$D/report-slub.json" "$TMP/reproduce.sh"
check "reproduce.sh is valid bash" bash -n "$TMP/reproduce.sh"
check "reproduce.sh is shellcheck clean" shellcheck "$TMP/reproduce.sh"
check "reproduce.sh runs both variants on the recorded workload, then reports" \
	bash -c "grep -q 'run --alloc=slab,slub --workload=\"\$PWD/default.json\"' '$TMP/reproduce.sh' &&
		grep -q 'report out/slab-default-cpus\*.json out/slub-default-cpus\*.json' '$TMP/reproduce.sh'"

# git send-email takes the file as it is.
git send-email --dry-run --confirm=never --suppress-cc=misc-by --suppress-cc=bodycc \
	"$TMP/a.mbox" >"$TMP/dry.out" 2>&1
check "git send-email --dry-run: OK" grep -q "^Result: OK" "$TMP/dry.out"
check "git send-email --dry-run: To and Cc as the mail says" \
	bash -c "grep -q '^RCPT TO:<linux-mm@kvack.org>' '$TMP/dry.out' &&
		grep -q '^RCPT TO:<vbabka@suse.cz>' '$TMP/dry.out' &&
		grep -q '^RCPT TO:<extra@example.org>' '$TMP/dry.out'"
grep -q "^Result: OK" "$TMP/dry.out" || tail -n 20 "$TMP/dry.out"

# And sends it, to a sink on 127.0.0.1 only.
python3 tests/e2e/smtp-sink.py "$TMP/sink" &
sink=$!
trap 'kill $sink 2>/dev/null; rm -rf "$TMP"' EXIT
for _ in $(seq 50); do [ -f "$TMP/sink/port" ] && break; sleep 0.1; done
git send-email --confirm=never --quiet --suppress-cc=misc-by --suppress-cc=bodycc \
	--smtp-server=127.0.0.1 --smtp-server-port="$(cat "$TMP/sink/port")" \
	"$TMP/a.mbox" >"$TMP/send.out" 2>&1
check "git send-email delivers it to the sink" test -f "$TMP/sink/1.eml"
[ -f "$TMP/sink/1.eml" ] || tail -n 20 "$TMP/send.out"
check "the sink's envelope: every To and Cc" \
	bash -c "grep -qx '<linux-mm@kvack.org>' '$TMP/sink/1.rcpt' && grep -qx '<cl@linux.com>' '$TMP/sink/1.rcpt'"
cat >"$TMP/sunk.py" <<'PY'
import email, email.policy, gzip, sys
m = email.message_from_bytes(open(sys.argv[1], "rb").read(), policy=email.policy.default)
att = {p.get_filename(): p for p in m.iter_attachments()}
ok = gzip.decompress(att["results-base.json.gz"].get_payload(decode=True)) == open(sys.argv[2], "rb").read()
print("%s - the sent mail's results-base.json.gz is the base's results" % ("ok" if ok else "not ok"))
PY
[ -f "$TMP/sink/1.eml" ] && python3 "$TMP/sunk.py" "$TMP/sink/1.eml" "$D/report-slab.json"
kill $sink

# A variant from a patch series: the mail answers the cover letter.
mkdir -p "$TMP/series"
cat >"$TMP/series/0000-cover-letter.patch" <<'EOF'
From 0000000000000000000000000000000000000000 Mon Sep 17 00:00:00 2001
From: A Developer <dev@example.org>
Date: Thu, 3 Dec 2026 10:00:00 +0000
Subject: [PATCH 0/1] mm/slub: a faster fast path
Message-Id: <cover.1701600000.git.dev@example.org>

The cover letter.
EOF
cat >"$TMP/series/0001-mm-slub-faster.patch" <<'EOF'
From 0000000000000000000000000000000000000000 Mon Sep 17 00:00:00 2001
From: A Developer <dev@example.org>
Subject: [PATCH 1/1] mm/slub: a faster fast path
Message-Id: <patch1.1701600000.git.dev@example.org>
In-Reply-To: <cover.1701600000.git.dev@example.org>

---
EOF
export SLABBENCH_VARIANTS=$TMP/variants
echo "myseries 6.1+$TMP/series base alloc-slub" >"$SLABBENCH_VARIANTS"
# The recorded SLUB run, named as if it came from the series: what the
# mail takes from a run is its variant and tree.
jq --arg t "6.1+$TMP/series" '.kernel.tree = $t | .kernel.variant = "myseries"' \
	"$D/report-slub.json" >"$TMP/series.json"
"$SB" report --mbox="$TMP/s.mbox" --maintainers-tree="$K" "$D/report-slab.json" \
	"$TMP/series.json" 2>"$TMP/s.err"
check "series: the mail is written" test -s "$TMP/s.mbox"
[ -s "$TMP/s.mbox" ] || cat "$TMP/s.err"
check "series: In-Reply-To and References name the cover letter" \
	bash -c "grep -qx 'In-Reply-To: <cover.1701600000.git.dev@example.org>' '$TMP/s.mbox' &&
		grep -qx 'References: <cover.1701600000.git.dev@example.org>' '$TMP/s.mbox'"
want='[slabbench] [linux-6.1.192+series] ("mm/slub: a faster fast path"): '
got=$(subject "$TMP/s.mbox" 2>/dev/null)
check "series: the subject names the series' patch" test "${got#"$want"}" != "$got"
python3 - "$TMP/s.mbox" "$TMP/s-reproduce.sh" <<'PY'
import email, email.policy, mailbox, sys
m = email.message_from_bytes(list(mailbox.mbox(sys.argv[1]))[0].as_bytes(), policy=email.policy.default)
for p in m.iter_attachments():
    if p.get_filename() == "reproduce.sh":
        open(sys.argv[2], "wb").write(p.get_payload(decode=True))
PY
check "series: reproduce.sh carries the variant's line" \
	grep -qx "myseries 6.1+$TMP/series base alloc-slub" "$TMP/s-reproduce.sh"
"$SB" report --mbox="$TMP/r.mbox" --maintainers-tree="$K" --in-reply-to="<other@example.org>" \
	"$D/report-slab.json" "$TMP/series.json" 2>/dev/null
check "--in-reply-to overrides the series" grep -qx 'In-Reply-To: <other@example.org>' "$TMP/r.mbox"

# A variant from a git tree (its results name DIR@COMMIT, 12 digits, as
# vm/kernel.sh records it): the subject names its commit, and
# get_maintainer.pl, MAINTAINERS and the files come from git at that
# commit, not from the checkout (which lost MAINTAINERS here).
R=$TMP/gittree
cp -r "$K" "$R"
git init -q "$R"
git -C "$R" add -A
git -C "$R" commit -qm "mm/slub: a change to test"
commit=$(git -C "$R" rev-parse HEAD)
rm "$R/MAINTAINERS"
echo "mine $R@${commit:0:12} base alloc-slub" >>"$SLABBENCH_VARIANTS"
jq --arg t "$R@${commit:0:12}" '.kernel.tree = $t | .kernel.variant = "mine"' \
	"$D/report-slub.json" >"$TMP/git.json"
"$SB" report --mbox="$TMP/g.mbox" "$D/report-slab.json" "$TMP/git.json" 2>"$TMP/g.err"
check "git tree: the mail is written" test -s "$TMP/g.mbox"
[ -s "$TMP/g.mbox" ] || cat "$TMP/g.err"
want="[slabbench] [gittree] ${commit:0:12} (\"mm/slub: a change to test\"): "
got=$(subject "$TMP/g.mbox" 2>/dev/null)
check "git tree: the subject names the tree, the commit and its title" \
	test "${got#"$want"}" != "$got"
check "git tree: To and Cc from MAINTAINERS at the commit" \
	bash -c "grep -q '^To: linux-mm@kvack.org' '$TMP/g.mbox' && grep -q 'Vlastimil Babka <vbabka@suse.cz>' '$TMP/g.mbox'"
check "git tree: the checkout is left as it was" \
	bash -c "[ ! -e '$R/MAINTAINERS' ] && [ \"\$(git -C '$R' status --porcelain)\" = ' D MAINTAINERS' ]"

# Refusals, each with its reason.
"$SB" report --mbox="$TMP/n.mbox" --no-maintainers "$D/report-slab.json" "$D/report-slub.json" \
	2>"$TMP/n.err"
check "--no-maintainers without --to: refused, no file" \
	bash -c "grep -q 'no recipient' '$TMP/n.err' && [ ! -e '$TMP/n.mbox' ]"
"$SB" report --mbox="$TMP/o.mbox" --no-maintainers --to=list@example.org \
	"$D/report-slab.json" "$D/report-slub.json" 2>/dev/null
check "--no-maintainers --to: only the given recipient" \
	bash -c "grep -qx 'To: list@example.org' '$TMP/o.mbox' && ! grep -q '^Cc:' '$TMP/o.mbox'"
HOME=$TMP/nohome "$SB" report --mbox="$TMP/f.mbox" --maintainers-tree="$K" \
	"$D/report-slab.json" "$D/report-slub.json" 2>"$TMP/f.err"
check "no sender: refused, naming --from" grep -q "give --from" "$TMP/f.err"
# Tags are never wrapped nor refused for their width.
long="https://example.org/$(printf '%070d' 0)"
"$SB" report --mbox="$TMP/l.mbox" --maintainers-tree="$K" --closes="$long" \
	--from="Maximiliana Ottilie Wojciechow <maximiliana.ottilie.wojciechowska-brzeczyszczyki@example.org>" \
	"$D/report-slab.json" "$D/report-slub.json" 2>"$TMP/l.err"
check "a long identity and a Closes: tag wider than 72 columns: the mail is written" \
	test -s "$TMP/l.mbox"
check "the tags are each on one line" \
	bash -c "grep -qx '| Closes: $long' '$TMP/l.mbox' &&
		grep -qx '| Reported-by: Maximiliana Ottilie Wojciechow <maximiliana.ottilie.wojciechowska-brzeczyszczyki@example.org>' '$TMP/l.mbox'"

#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Instructions executed per call of kernel functions, from a log of
scripts/trace-qemu.sh: each translation block's instructions (the last
translation of its address, as code patched at boot is translated anew)
are added up from a call's entry block until the next entry's, inside
the traced range only (callees outside it are not counted). Prints, for
each entry, how many instructions the last N calls took, and the blocks
of the most common path; then the longest stretch of calls that repeats
itself call for call, every entry once a round (a benchmark's loop: the
last N calls may include others, made after it).

    scripts/tb-path.py LOG [--last N] NAME=ADDRESS...
"""
import argparse
import collections
import re
import sys

# An instruction's line has its mnemonic after the bytes; QEMU carries
# the bytes of one longer than 8 on to a line of their own, which is
# not an instruction.
INSN = re.compile(r'^0x([0-9a-f]+):  (?:[0-9a-f]{2} )*[0-9a-f]{2}  +\S')
TRACE = re.compile(r'^Trace \d+: 0x[0-9a-f]+ \[[0-9a-f]+/([0-9a-f]+)/')


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument('log')
    ap.add_argument('--last', type=int, default=100,
                    help='the calls counted: the last N (a test loop is)')
    ap.add_argument('entry', nargs='+', help='NAME=ADDRESS (hex)')
    a = ap.parse_args()
    entries = {}
    for e in a.entry:
        name, sep, addr = e.partition('=')
        try:
            entries[int(addr, 16)] = name
        except ValueError:
            sys.exit(f'tb-path.py: {e}: not NAME=ADDRESS')
    size, first, active = {}, None, None
    calls = collections.defaultdict(list)
    order = []
    with open(a.log, errors='replace') as f:
        for line in f:
            if line.startswith('IN:'):
                first = None
                continue
            m = INSN.match(line)
            if m:
                if first is None:
                    first = int(m.group(1), 16)
                    size[first] = 0
                size[first] += 1
                continue
            m = TRACE.match(line)
            if not m:
                continue
            pc, first = int(m.group(1), 16), None
            if pc in entries:
                active = entries[pc]
                calls[active].append([])
                order.append((active, calls[active][-1]))
            if active:
                calls[active][-1].append((pc, size.get(pc, 0)))
    if not calls:
        sys.exit(f'tb-path.py: {a.log}: no call of any entry was traced')
    for name, lst in calls.items():
        last = lst[-a.last:]
        counts = collections.Counter(sum(n for _, n in c) for c in last)
        common = counts.most_common(1)[0][0]
        path = next(c for c in last if sum(n for _, n in c) == common)
        print(f'{name}: {len(lst)} calls; the last {len(last)}, instructions: '
              + ', '.join(f'{k} x{v}' for k, v in sorted(counts.items())))
        print('  blocks of a', common, 'path:',
              ' '.join(f'{pc:x}+{n}' for pc, n in path))
    loop(order, len(entries))


def loop(order, period):
    """The longest stretch of calls in which each call took the path of
    the call one round (period calls) before it, every entry called once
    a round."""
    seq = [(name, sum(n for _, n in c)) for name, c in order]
    best, start, i = 0, 0, 0
    while i < len(seq):
        j = i
        while j + period < len(seq) and seq[j + period] == seq[j]:
            j += 1
        length = min(j - i + period, len(seq) - i)
        every = len({name for name, _ in seq[i:i + period]}) == period
        if every and length > best:
            best, start = length, i
        i = j + 1
    print(f'loop: {best} calls in a row repeat every {period}, from call '
          f'{start + 1} of {len(seq)}: '
          + ', '.join(f'{name} {n}' for name, n in seq[start:start + period]))


if __name__ == '__main__':
    main()

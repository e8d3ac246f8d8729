#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""An SMTP sink on 127.0.0.1 for the tests: it accepts every message and
writes it to DIR/N.eml, its envelope recipients to DIR/N.rcpt. It never
relays. Usage: smtp-sink.py DIR; the port it listens on goes to DIR/port.
It serves until killed."""
import os
import socket
import sys

out = sys.argv[1]
os.makedirs(out, exist_ok=True)
srv = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
srv.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
srv.bind(("127.0.0.1", 0))
srv.listen(4)
with open(os.path.join(out, "port.tmp"), "w") as f:
    f.write("%d\n" % srv.getsockname()[1])
os.rename(os.path.join(out, "port.tmp"), os.path.join(out, "port"))
count = 0


def serve(conn):
    global count
    f = conn.makefile("rwb")

    def reply(line):
        f.write(line.encode() + b"\r\n")
        f.flush()

    reply("220 localhost slabbench test sink")
    rcpt = []
    while True:
        line = f.readline()
        if not line:
            return
        cmd = line.decode("ascii", "replace").strip()
        verb = cmd.split(" ", 1)[0].upper()
        if verb == "EHLO":
            reply("250-localhost")
            reply("250 8BITMIME")
        elif verb == "HELO":
            reply("250 localhost")
        elif verb == "MAIL":
            rcpt = []
            reply("250 ok")
        elif verb == "RCPT":
            rcpt.append(cmd.split(":", 1)[1].strip())
            reply("250 ok")
        elif verb == "DATA":
            reply("354 end with .")
            data = []
            while True:
                l = f.readline()
                if not l or l in (b".\r\n", b".\n"):
                    break
                if l.startswith(b".."):
                    l = l[1:]
                data.append(l.replace(b"\r\n", b"\n"))
            count += 1
            base = os.path.join(out, "%d" % count)
            with open(base + ".rcpt", "w") as r:
                r.write("\n".join(rcpt) + "\n")
            with open(base + ".eml.tmp", "wb") as m:
                m.write(b"".join(data))
            os.rename(base + ".eml.tmp", base + ".eml")
            reply("250 queued as %d" % count)
        elif verb in ("RSET", "NOOP"):
            reply("250 ok")
        elif verb == "QUIT":
            reply("221 bye")
            return
        else:
            reply("502 not here")


while True:
    c, _ = srv.accept()
    try:
        serve(c)
    finally:
        c.close()

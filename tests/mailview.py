#!/usr/bin/python3
"""mailview.py: a mail as a reader's client shows it: its HTML part written out with every cid: picture beside it.

usage: mailview.py MAIL.eml OUTDIR NAME
  writes OUTDIR/NAME.html (cid:X replaced by NAME.N.png, written beside it)
  and prints the mail's mailto: links, one a line: TO<TAB>SUBJECT<TAB>BODY
"""
import email
import email.policy
import html
import os
import re
import sys
import urllib.parse

mail_path, out, name = sys.argv[1], sys.argv[2], sys.argv[3]
msg = email.message_from_binary_file(open(mail_path, "rb"), policy=email.policy.default)
html_part, images = None, {}
for part in msg.walk():
    ctype = part.get_content_type()
    if ctype == "text/html" and html_part is None:
        html_part = part.get_content()
    elif ctype.startswith("image/"):
        cid = (part.get("Content-ID") or "").strip("<>")
        images[cid] = part.get_payload(decode=True)
if html_part is None:
    sys.exit("%s has no HTML part" % mail_path)
os.makedirs(out, exist_ok=True)
n = 0
for cid, data in images.items():
    n += 1
    fname = "%s.%d.png" % (name, n)
    with open(os.path.join(out, fname), "wb") as f:
        f.write(data)
    html_part = html_part.replace("cid:" + cid, fname)
missing = re.findall(r'src="cid:([^"]+)"', html_part)
if missing:
    sys.exit("%s: no picture for cid:%s" % (mail_path, missing[0]))
with open(os.path.join(out, name + ".html"), "w") as f:
    f.write(html_part)
for href in re.findall(r'href="(mailto:[^"]+)"', html_part):
    u = urllib.parse.urlsplit(html.unescape(href))
    q = urllib.parse.parse_qs(u.query)
    to = urllib.parse.unquote(u.path)
    print("%s\t%s\t%s" % (to, q.get("subject", [""])[0], q.get("body", [""])[0].replace("\r\n", "\\n")))

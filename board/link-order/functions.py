#!/usr/bin/env python3
"""The link order file for the marquee binary (board/link-order/update):
each function of BINARY that ran in the callgrind profiles given, then the
rest of the display and sound modules' functions, one mangled name a line,
as lld's --symbol-ordering-file reads it."""

import re
import subprocess
import sys

# Modules a board plays through that the profiles (null outputs) do not run.
DEVICE_MODULES = ("MarqueeKMS", "MarqueeALSA")
NAMED = re.compile(r"^(ob|cob|fn|cfn)=\((\d+)\)(?: (.*))?$")


def functions_run(profile, binary_name):
    """Names of the functions that ran in `binary_name`: callgrind gives each
    a `fn=` line under its object's `ob=`; names and objects are written
    once, then referred to by number (`cfn=`/`cob=` share the numbering)."""
    names, objects, ran, current = {}, {}, set(), None
    with open(profile, errors="replace") as lines:
        for line in lines:
            match = NAMED.match(line.rstrip("\n"))
            if not match:
                continue
            kind, number, name = match.groups()
            table = objects if kind in ("ob", "cob") else names
            if name is not None:
                table[number] = name
            if kind == "ob":
                current = objects.get(number)
            elif kind == "fn" and current and current.endswith("/" + binary_name):
                function = names.get(number)
                if function and not function.startswith("0x"):
                    ran.add(function)
    return ran


def defined_functions(binary):
    listing = subprocess.run(["nm", "--defined-only", binary], check=True, capture_output=True, text=True).stdout
    return [fields[2] for fields in (line.split() for line in listing.splitlines())
            if len(fields) == 3 and fields[1] in "tTwW"]


def module_of(mangled):
    match = re.match(r"\$s(\d+)", mangled)
    if not match:
        return None
    start = 2 + len(match.group(1))
    return mangled[start:start + int(match.group(1))]


def main():
    binary, profiles = sys.argv[1], sys.argv[2:]
    defined = defined_functions(binary)
    known = set(defined)
    ran = set()
    for profile in profiles:
        ran |= functions_run(profile, binary.rsplit("/", 1)[-1])
    ran &= known
    device = sorted({name for name in defined if module_of(name) in DEVICE_MODULES} - ran)
    print("# Written by board/link-order/update: the functions playing runs, laid out")
    print("# together by lld (--symbol-ordering-file in Package.swift); see that script.")
    print(f"# {len(ran)} that ran in its profiles, then {len(device)} more of {', '.join(DEVICE_MODULES)}.")
    for name in sorted(ran) + device:
        print(name)


if __name__ == "__main__":
    main()

#!/bin/sh
# unit: needs no kernel tree and no build (make test-unit)
# boot-tests/nvram: the pseries NVRAM image VOF boots get.  Its header is a
# free-space partition spanning the image, with the checksum the kernel's
# nvram_checksum() computes (0x29 for 64 KiB: the header of the image that
# booted without "nvram corruption detected").  Without it the warning
# stays a failure: the parser is not loosened for it.
. "$(dirname "$0")/lib.sh"

img=$(BUILD=$T "$TOP/boot-tests/nvram" 65536) || bad "nvram 65536 failed"
[ "$(wc -c <"$img")" = 65536 ] && ok "64 KiB" || bad "size $(wc -c <"$img")"
hdr=$(od -A n -t x1 -N 16 "$img" | tr -d ' \n')
[ "$hdr" = 7f291000777777777777777777777777 ] && ok "header: free partition, 4096 blocks, checksum 29" ||
	bad "header $hdr"
[ "$(od -A n -t x1 -j 16 "$img" | tr -d ' \n*' | tr -d 0)" = "" ] && ok "the rest is zero" || bad "non-zero body"
img2=$(BUILD=$T "$TOP/boot-tests/nvram" 8192)
[ "$(od -A n -t x1 -N 4 "$img2" | tr -d ' \n')" = 7f1b0200 ] && ok "8 KiB: 512 blocks, checksum 1b" ||
	bad "8 KiB header $(od -A n -t x1 -N 4 "$img2" | tr -d ' \n')"
expect_fail 'not a multiple of 16' env BUILD="$T" "$TOP/boot-tests/nvram" 100
expect_fail 'not a multiple of 16' env BUILD="$T" "$TOP/boot-tests/nvram" 2097152
cp "$FIX/console/vof-no-nvram-ppc64le.log" "$T/log"
v=$("$TOP/boot-tests/parse" "$T/log" smoke | tail -n 1)
[ "$v" = "boot: FAIL kernel: WARNING: nvram corruption detected: 0-length partition" ] &&
	ok "an unformatted NVRAM still fails the boot" || bad "parse: $v"
finish

#!/bin/sh
# package_windows.sh ZIP REPLAY [WORK] - the Windows zip as a player gets it (made by
# tools/package.sh windows): unpacked into WORK/unpacked (default: a temporary folder), its
# one top folder checked (game.exe importing Windows' own DLLs alone, README.txt and
# LICENSE.txt with CRLF line ends), then game.exe started by its path from WORK/elsewhere
# plays REPLAY (the full run) to its hash and fails without its assets/ (package_play.sh,
# shared with the Linux tarball's test). $AD_RUN runs a Windows program (wine64, set by
# the Windows ctest); unset, wine64 is looked for, and without it the test is skipped (77).
set -u
zip=$1 replay=$2 work=${3:-}
fail() { echo "package_windows: FAIL: $*"; exit 1; }
. "$(dirname "$0")/package_play.sh"
[ -f "$zip" ] || fail "no $zip (tools/package.sh windows makes it)"
if [ -z "$work" ]; then work=$(mktemp -d) && trap 'rm -rf "$work"' EXIT; fi
run=${AD_RUN:-}
if [ -z "$run" ]; then
    for w in wine64 /usr/lib/wine/wine64; do command -v "$w" >/dev/null 2>&1 && { run=$w; break; }; done
    [ -n "$run" ] || { echo "package_windows: no wine64 to run game.exe: skipped"; exit 77; }
fi
export WINEDEBUG=-all SDL_VIDEODRIVER=dummy SDL_AUDIODRIVER=dummy
unset AD_ASSET_DIR
rm -rf "$work/unpacked" "$work/elsewhere" && mkdir -p "$work/unpacked" "$work/elsewhere" || exit 1
unzip -q "$zip" -d "$work/unpacked" || fail "cannot unpack $zip"
[ "$(ls "$work/unpacked" | wc -l)" -eq 1 ] || fail "not one folder at the top: $(ls "$work/unpacked")"
top=$(ls -d "$work"/unpacked/arena-dungeon-*) || fail "no arena-dungeon-VER/ folder at the top"
for f in game.exe levelcheck.exe levelfmt.exe lvl2tiled.exe README.txt LICENSE.txt assets/tiles.png levels/01-first-steps.lvl; do
    [ -f "$top/$f" ] || fail "no $f in the zip"
done
for f in README.txt LICENSE.txt; do
    [ "$(grep -c "$(printf '\r')\$" "$top/$f")" -eq "$(wc -l <"$top/$f")" ] || fail "$f has lines without CRLF"
done
if command -v x86_64-w64-mingw32-objdump >/dev/null 2>&1; then # deps: gcc-mingw-w64-x86-64-posix (binutils)
    dlls=$(x86_64-w64-mingw32-objdump -p "$top/game.exe" | awk '/DLL Name:/ { print tolower($3) }' | tr '\n' ' ')
    for d in $dlls; do
        case $d in
            kernel32.dll | user32.dll | gdi32.dll | msvcrt.dll | advapi32.dll | shell32.dll | ole32.dll | oleaut32.dll | \
            imm32.dll | version.dll | winmm.dll | setupapi.dll | dinput8.dll | hid.dll | cfgmgr32.dll | ws2_32.dll | \
            bcrypt.dll | comdlg32.dll | shlwapi.dll | api-ms-win-*) ;;
            *) fail "game.exe imports $d, which Windows does not have (imports: $dlls)" ;;
        esac
    done
fi

package_play package_windows "$run" "$top/game.exe" "$replay" "$work" "$top" ".*levels[/\\\\]"
echo "package_windows: $(basename "$zip") plays the full run from elsewhere"

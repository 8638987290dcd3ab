#!/bin/sh
# package_windows.sh ZIP REPLAY [WORK] - the Windows zip as a player gets it (made by
# tools/package.sh windows): unpacked into WORK/unpacked (default: a temporary folder), its
# one top folder checked (game.exe importing Windows' own DLLs alone, README.txt and
# LICENSE.txt with CRLF line ends), then game.exe started by its path from WORK/elsewhere
# plays REPLAY (the full run) to its hash on the unpacked levels, every sound and score
# loaded (mixed offline: --audio-out), and fails without its
# assets/ (no source tree to fall back on). $AD_RUN runs a Windows program (wine64, set by
# the Windows ctest); unset, wine64 is looked for, and without it the test is skipped (77).
set -u
zip=$1 replay=$2 work=${3:-}
fail() { echo "package_windows: FAIL: $*"; exit 1; }
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
if command -v x86_64-w64-mingw32-objdump >/dev/null 2>&1; then
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

# The replay names its level "levels/01-first-steps.lvl": found beside the game's assets.
out=$(cd "$work/elsewhere" && $run "$top/game.exe" --headless --no-save --replay "$replay" \
    --audio-out "$work/run.wav" 2>&1); rc=$?
rm -f "$work/run.wav"
out=$(printf '%s\n' "$out" | tr -d '\r')
printf '%s\n' "$out" | grep -v '^  '
[ $rc -eq 0 ] || fail "the full replay exited $rc"
printf '%s\n' "$out" | grep -q "^replay .*: played to the end, 7 levels completed, hash .* (matches)$" ||
    fail "the full replay did not end on its hash"
printf '%s\n' "$out" | grep -q "^sound data: .* files, 0 missing)$" || fail "the sounds and music did not all load"
if printf '%s\n' "$out" | grep -q "error:"; then fail "the run reported an error"; fi
for n in 01 02 03 04 05 06 07; do
    printf '%s\n' "$out" | grep -q "^  .*levels[/\\]$n-" || fail "level $n not in the exit report"
done

mv "$top/assets" "$top/assets.away"
out=$(cd "$work/elsewhere" && $run "$top/game.exe" --headless --no-save --frames 2 --level "$top/levels/01-first-steps.lvl" 2>&1)
mv "$top/assets.away" "$top/assets"
printf '%s\n' "$out" | grep -q "no assets folder found" || fail "without its assets/ the game said: $out"
echo "package_windows: $(basename "$zip") plays the full run from elsewhere"

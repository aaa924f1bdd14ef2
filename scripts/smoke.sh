#!/usr/bin/env bash
# make smoke: checks, in under a minute, that the appliance `make run`
# serves in another terminal works end to end: it answers, a user and a
# developer key can be made, a conversation can be created through the API,
# a spoken sentence is transcribed, and a live session streams, is heard
# and is processed. One ✓ line per step; the first failure stops it with
# its reason (exit 1).
#
#   HEARTH_URL   the appliance's address (default http://127.0.0.1:8080)
#   HEARTH_DATA  the data folder it serves (default ./data), for the user and key
#   HEARTH_BIN   the hearth binary (default bin/hearth)
#
# The user it works as is "smoke-test" (made on the first run, reused
# after); its key is revoked at the end. Speech comes from Festival
# (scripts/deps.sh test installs it); without it the two speech steps are
# skipped and say so.
set -uo pipefail

URL=${HEARTH_URL:-http://127.0.0.1:8080}
URL=${URL%/}
DATA=${HEARTH_DATA:-./data}
BIN=${HEARTH_BIN:-bin/hearth}
# The hearth commands below take --url and --data themselves; their
# environment twins must not say otherwise.
unset HEARTH_URL HEARTH_DATA HEARTH_TOKEN HEARTH_USER

ok() { printf '✓ %s\n' "$*"; }
skip() { printf -- '- %s\n' "$*"; }
fail() {
	printf '✗ %s\n' "$*" >&2
	exit 1
}

work=$(mktemp -d)
KEY_ID=""
cleanup() {
	if [[ -n $KEY_ID ]]; then
		"$BIN" keys revoke --data "$DATA" --user "$USER_ID" --key "$KEY_ID" >/dev/null 2>&1
	fi
	rm -rf "$work"
}
trap cleanup EXIT

[[ -x $BIN ]] || fail "no $BIN: run make build (or make run) first, or set HEARTH_BIN"
command -v curl >/dev/null || fail "curl is not installed (make deps installs it)"

# 1. It answers.
if ! health=$(curl -sS --max-time 10 "$URL/healthz" 2>&1); then
	fail "health: nothing answers at $URL ($health): start it with make run in another terminal, or set HEARTH_URL"
fi
[[ $health == *'"status":"ok"'* ]] || fail "health: $URL/healthz answered $health"
ok "health: $URL answers"

# 2. A user, in the folder the appliance serves.
[[ -f $DATA/hearth.db ]] || fail "user: $DATA holds no Hearth data; set HEARTH_DATA to the folder the appliance serves"
USER_ID=$("$BIN" users list --data "$DATA" 2>&1 | awk '$2 == "smoke-test" { print $1; exit }')
if [[ -n $USER_ID ]]; then
	ok "user: smoke-test ($USER_ID, made by an earlier run)"
else
	out=$("$BIN" users add --data "$DATA" --name smoke-test 2>&1) || fail "user: hearth users add failed: $out"
	USER_ID=$(tail -1 <<<"$out")
	ok "user: smoke-test ($USER_ID)"
fi

# 3. A developer key for it.
out=$("$BIN" keys create --data "$DATA" --user "$USER_ID" --kind dev --name smoke \
	--scopes conversations:read,conversations:write 2>"$work/key.err") || fail "key: hearth keys create failed: $(cat "$work/key.err")"
KEY=$(tail -1 <<<"$out")
KEY_ID=$(grep -o 'key [0-9a-f-]\{36\}' "$work/key.err" | head -1 | cut -d' ' -f2)
[[ $KEY == hearth_dev_* ]] || fail "key: expected a hearth_dev_ key, got: $out"
ok "key: ${KEY:0:15}… (revoked when this ends)"

# 4. A conversation from transcript segments, over the developer API.
code=$(curl -sS --max-time 30 -o "$work/create.json" -w '%{http_code}' "$URL/v1/dev/user/conversations/from-segments" \
	-H "Authorization: Bearer $KEY" -H "Content-Type: application/json" \
	-d '{"transcript_segments":[
	      {"text":"We need to finish the quarterly budget before the board meeting.","speaker":"SPEAKER_00","is_user":true,"start":0,"end":4},
	      {"text":"Marketing is over by ten percent, so let us cut conference travel.","speaker":"SPEAKER_01","start":4.5,"end":9}]}' 2>&1) ||
	fail "from-segments: $code"
[[ $code == 200 ]] || fail "from-segments: HTTP $code: $(cat "$work/create.json")"
grep -q '"status":"completed"' "$work/create.json" || fail "from-segments: not completed: $(cat "$work/create.json")"
ok "from-segments: conversation $(grep -o '"id":"[^"]*"' "$work/create.json" | cut -d'"' -f4) created"

# 5 and 6 need speech.
if ! command -v text2wave >/dev/null; then
	skip "transcribe: skipped, Festival is not installed (scripts/deps.sh test installs it)"
	skip "live session: skipped, Festival is not installed (scripts/deps.sh test installs it)"
	exit 0
fi
sentence="Please send a report to my manager tomorrow morning."
voice=()
[[ -d /usr/share/festival/voices/us/cmu_us_slt_arctic_hts ]] && voice=(-eval '(voice_cmu_us_slt_arctic_hts)')
text2wave -F 16000 "${voice[@]}" -o "$work/sentence.wav" <<<"$sentence" 2>"$work/tts.err" ||
	fail "transcribe: Festival could not speak the sentence: $(cat "$work/tts.err")"

# 5. The sentence transcribed by the appliance's speech route.
out=$(timeout 60 "$BIN" transcribe "$work/sentence.wav" --url "$URL" --data "$DATA" --user "$USER_ID" 2>&1) ||
	fail "transcribe: $out"
grep -qi manager <<<"$out" || fail "transcribe: \"manager\" not heard in: $out"
ok "transcribe: $(sed -n 's/^.*: //p' <<<"$out" | head -1)"

# 6. A live session: the file streamed as a wearable would, heard, ended
# and processed into a conversation.
out=$(timeout 60 "$BIN" listen --file "$work/sentence.wav" --url "$URL" --data "$DATA" --user "$USER_ID" --speed 0 --end 2>&1) ||
	fail "live session: $out"
grep -qi manager <<<"$out" || fail "live session: \"manager\" not heard in: $out"
processed=$(grep -m1 '· processed' <<<"$out") || fail "live session: no processed conversation: $out"
ok "live session: heard and ${processed#· }"

#!/usr/bin/env bash
# Creates or updates the pull request's agentevals comment for one suite:
# the comment whose body holds the same hidden marker (the first line of
# the comment file, written by evalrun report --format comment) is edited,
# else a new one is posted. It needs GITHUB_TOKEN, GITHUB_REPOSITORY and a
# pull request event (GITHUB_EVENT_PATH); GITHUB_API_URL is the API's
# address (a test points it at a local server). It never fails the job:
# a comment that cannot be posted is a warning.
set -uo pipefail

file="${1:?usage: comment.sh COMMENT_FILE}"
api="${GITHUB_API_URL:-https://api.github.com}"
repo="${GITHUB_REPOSITORY:-}"
token="${GITHUB_TOKEN:-}"
event="${GITHUB_EVENT_PATH:-}"

warn() { echo "::warning::agentevals comment: $*" >&2; exit 0; }

[ -n "$token" ] || warn "no github-token: the comment is not posted"
[ -n "$repo" ] || warn "GITHUB_REPOSITORY is not set"
[ -n "$event" ] && [ -f "$event" ] || warn "no event file: not a pull request job"
pr="$(jq -r '.pull_request.number // empty' "$event")"
[ -n "$pr" ] || { echo "agentevals: not a pull request: no comment" >&2; exit 0; }
marker="$(head -n 1 "$file")"
case "$marker" in "<!-- agentevals:"*" -->") ;; *) warn "$file does not start with the agentevals marker" ;; esac

call() { # METHOD URL [BODY_FILE]: prints the response, fails on an HTTP error
	local args=(-sS --fail-with-body --max-time 30 -X "$1" -H "Authorization: Bearer $token"
		-H "Accept: application/vnd.github+json" -H "X-GitHub-Api-Version: 2022-11-28")
	[ $# -ge 3 ] && args+=(-H "Content-Type: application/json" --data-binary "@$3")
	curl "${args[@]}" "$2"
}

# The existing comment: at most 10 pages of 100 comments are read.
id=""
for page in 1 2 3 4 5 6 7 8 9 10; do
	comments="$(call GET "$api/repos/$repo/issues/$pr/comments?per_page=100&page=$page")" || warn "listing the comments failed: $comments"
	id="$(jq -r --arg m "$marker" '[.[] | select((.body // "") | startswith($m))][0].id // empty' <<<"$comments")"
	[ -n "$id" ] && break
	[ "$(jq 'length' <<<"$comments")" -lt 100 ] && break
done

body="$(mktemp)"
trap 'rm -f "$body"' EXIT
jq -Rs '{body: .}' <"$file" >"$body"
if [ -n "$id" ]; then
	out="$(call PATCH "$api/repos/$repo/issues/comments/$id" "$body")" || warn "updating comment $id failed: $out"
	echo "agentevals: updated the pull request comment $id" >&2
else
	out="$(call POST "$api/repos/$repo/issues/$pr/comments" "$body")" || warn "posting the comment failed: $out"
	echo "agentevals: posted a pull request comment" >&2
fi

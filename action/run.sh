#!/usr/bin/env bash
# Runs one suite for the agentevals GitHub Action and records the outcome:
# GitHub annotations and the job summary (evalrun's --report github), the
# HTML, Markdown, JSON and JUnit reports in one directory for the artifact,
# and the exit code and report directory as step outputs. It exits 0 itself
# so the upload runs; the action's last step exits with evalrun's code.
# When evalrun stops before writing a summary (an invalid suite, exit 2),
# the summary says so with evalrun's message.
set -uo pipefail

suite="${INPUT_SUITE:?the suite input is required}"
reports="${RUNNER_TEMP:-${TMPDIR:-/tmp}}/agentevals-report"
summary="${GITHUB_STEP_SUMMARY:-/dev/null}"
output="${GITHUB_OUTPUT:-/dev/null}"
mkdir -p "$reports"

if [ -n "${INPUT_DATABASE_URL:-}" ]; then
	export DATABASE_URL="$INPUT_DATABASE_URL"
elif [ -z "${DATABASE_URL:-}" ]; then
	export DATABASE_URL="sqlite:${reports}/history.sqlite3"
	echo "agentevals: no database-url given: the history is a SQLite file of this job, so there is no baseline to compare with" >&2
fi

metadata='{}'
if [ -n "${GITHUB_SHA:-}" ]; then
	metadata="{\"revision\": \"${GITHUB_SHA}\"}"
fi

# INPUT_ARGS is split on white space (never evaluated by the shell).
declare -a extra=()
if [ -n "${INPUT_ARGS:-}" ]; then
	read -r -a extra <<<"$INPUT_ARGS"
fi

size_before=0
[ -f "$summary" ] && size_before=$(wc -c <"$summary")
errlog="$reports/evalrun.stderr"
evalrun run "$suite" \
	--fail-on "${INPUT_FAIL_ON:-both}" \
	--gate "${INPUT_GATE:-strict}" \
	--metadata "$metadata" \
	--report github \
	--report "$reports/report.html" \
	--report "$reports/report.md" \
	--report "$reports/report.json" \
	--junit "$reports/junit.xml" \
	"${extra[@]}" 2> >(tee "$errlog" >&2)
code=$?
wait

size_after=0
[ -f "$summary" ] && size_after=$(wc -c <"$summary")
if [ "$summary" != /dev/null ] && [ "$size_after" -eq "$size_before" ]; then
	{
		echo "## agentevals: ${suite}"
		echo
		echo "evalrun exited ${code} before writing a report:"
		echo
		echo '```text'
		tail -n 40 "$errlog"
		echo '```'
	} >>"$summary"
fi
{
	echo "exit-code=${code}"
	echo "report-dir=${reports}"
} >>"$output"
echo "agentevals: evalrun exited ${code}; reports in ${reports}" >&2
exit 0

#!/usr/bin/env bash
# Runs one suite for the agentevals GitHub Action and records the outcome:
# GitHub annotations and the job summary (evalrun's --report github), the
# HTML, Markdown, JSON and JUnit reports in one directory for the artifact,
# and the exit code and report directory as step outputs. It exits 0 itself
# so the upload runs; the action's last step exits with evalrun's code.
# When evalrun stops before writing a summary (an invalid suite, exit 2),
# the summary says so with evalrun's message.
#
# Baselines without a database: with INPUT_SAVE_BASELINE=true (the default
# branch's job) the run is written to the evidence file
# $AGENTEVALS_BASELINE_DIR/baseline.json, which action.yml caches; with
# INPUT_RESTORE_BASELINE=true (a pull request's job) a baseline.json that
# action.yml restored there is the run's --baseline-from. A pull request
# without a restored file runs without a baseline and says so.
#
# With INPUT_COMMENT=true the Markdown pull-request comment (evalrun report
# --format pr-comment) is posted by action/comment.sh, one per suite.
set -uo pipefail

suite="${INPUT_SUITE:?the suite input is required}"
reports="${RUNNER_TEMP:-${TMPDIR:-/tmp}}/agentevals-report"
summary="${GITHUB_STEP_SUMMARY:-/dev/null}"
output="${GITHUB_OUTPUT:-/dev/null}"
mkdir -p "$reports"

baseline_dir="${AGENTEVALS_BASELINE_DIR:-${RUNNER_TEMP:-${TMPDIR:-/tmp}}/agentevals-baseline}"
declare -a baseline=()
if [ -n "${INPUT_DATABASE_URL:-}" ]; then
	export DATABASE_URL="$INPUT_DATABASE_URL"
elif [ -z "${DATABASE_URL:-}" ]; then
	export DATABASE_URL="sqlite:${reports}/history.sqlite3"
	if [ "${INPUT_SAVE_BASELINE:-false}" != true ] && [ "${INPUT_RESTORE_BASELINE:-false}" != true ]; then
		echo "agentevals: no database-url given: the history is a SQLite file of this job, so there is no baseline to compare with (save-baseline and restore-baseline keep one in the cache)" >&2
	fi
fi
if [ -n "${INPUT_DATABASE_URL:-}" ] && { [ "${INPUT_SAVE_BASELINE:-false}" = true ] || [ "${INPUT_RESTORE_BASELINE:-false}" = true ]; }; then
	echo "agentevals: save-baseline and restore-baseline are for jobs without a database-url; the database's history gives the baseline" >&2
elif [ "${INPUT_SAVE_BASELINE:-false}" = true ]; then
	mkdir -p "$baseline_dir"
	rm -f "$baseline_dir/baseline.json"
	baseline=(--save-to "$baseline_dir/baseline.json")
	echo "agentevals: this run is saved as the baseline in $baseline_dir/baseline.json" >&2
elif [ "${INPUT_RESTORE_BASELINE:-false}" = true ]; then
	if [ -f "$baseline_dir/baseline.json" ]; then
		baseline=(--baseline-from "$baseline_dir/baseline.json")
		echo "agentevals: comparing with the saved baseline $baseline_dir/baseline.json" >&2
	else
		echo "agentevals: restore-baseline: no saved baseline in $baseline_dir (has the default branch's job run with save-baseline?); thresholds only" >&2
	fi
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
	${baseline[@]+"${baseline[@]}"} \
	${extra[@]+"${extra[@]}"} > >(tee "$reports/evalrun.stdout") 2> >(tee "$errlog" >&2)
code=$?
wait

if [ "${INPUT_COMMENT:-false}" = true ]; then
	run_id="$(sed -n 's/.*run \([0-9a-f-]\{36\}\) saved to.*/\1/p' "$reports/evalrun.stdout" | head -n 1)"
	link=""
	if [ -n "${GITHUB_SERVER_URL:-}" ] && [ -n "${GITHUB_REPOSITORY:-}" ] && [ -n "${GITHUB_RUN_ID:-}" ]; then
		link="${GITHUB_SERVER_URL}/${GITHUB_REPOSITORY}/actions/runs/${GITHUB_RUN_ID}"
	fi
	if [ -z "$run_id" ]; then
		echo "agentevals: comment: no run was saved to a database (exit ${code}); no comment" >&2
	elif evalrun report "$run_id" --format comment --comment-key "$suite" --link "$link" --output "$reports/comment.md"; then
		bash "$(dirname "${BASH_SOURCE[0]}")/comment.sh" "$reports/comment.md"
	fi
fi

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
	if [ "${INPUT_SAVE_BASELINE:-false}" = true ] && [ -z "${INPUT_DATABASE_URL:-}" ] && [ -f "$baseline_dir/baseline.json" ]; then
		echo "baseline-file=${baseline_dir}/baseline.json"
	fi
} >>"$output"
echo "agentevals: evalrun exited ${code}; reports in ${reports}" >&2
exit 0

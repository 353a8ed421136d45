// Package evaltest runs agent evaluations inside go test, with the same
// suite files, scorers and evidence as evalrun.
//
// Two styles, usable side by side in one test file.
//
// A suite, one subtest per question:
//
//	func TestSupport(t *testing.T) {
//		evaltest.Run(t, "testdata/suite.json", agent.Func(agent.Answer))
//	}
//
// Run loads the suite with the runner package, asks the agent every
// selected question through runner.Execute (the code path of evalrun run:
// strict API replay from the suite's fixtures through agent.HTTPClient,
// the score registry's scorers, the same statuses) and reports each
// question in a subtest named by its id, so
//
//	go test -run 'TestSupport/returns'
//
// asks the agent that one question. A question fails when a calculated
// check fails or errors, or when the agent call fails; its log names each
// metric with its score, threshold and reason. A question whose metrics
// could not be calculated (judge metrics without a judge, or under -short)
// is skipped with the reason, never passed.
//
// Single answers, with assertions that read like the checks of a suite:
//
//	evaltest.Contains(t, answer, "30 days")
//	evaltest.Matches(t, answer, `\b30 days\b`)
//	j := evaltest.NewJudge(t)
//	j.Faithful(t, answer, policyText)
//
// Every assertion but MaxTokens is built from the score registry
// (contains, matches, valid_json, json_schema, the LLM metrics, …), so it
// means what the same check means in a suite file. MaxTokens reads the
// output tokens the agent reported; tokens are never estimated.
//
// # Judges
//
// Judge-backed checks use, in this order: the WithJudge option; the
// environment evalrun reads (EVAL_JUDGE_PROVIDER, EVAL_JUDGE_MODEL,
// EVAL_JUDGE_BASE_URL, EVAL_JUDGE_CACHE, EVAL_NO_JUDGE, and the provider's
// credential such as OPENAI_API_KEY) merged over the suite's judge
// section, as evalrun's flags are, built by the models passed with
// WithModels(modelkit.Models{}). evaltest links no model SDK itself: a
// judge (or a suite's llm agent) that is configured without WithModels
// fails the test, naming the option. Without a judge they are not evaluated:
// the question's log says "not evaluated: no judge configured" and a
// single-answer judge assertion skips. Under go test -short judge-backed
// checks are skipped with a reason, so a quick local run never calls a
// paid model.
//
// # History and the regression gate
//
// With EVALTEST_DATABASE_URL set (a PostgreSQL URL, sqlite:PATH, or
// "default" for evalrun's default SQLite file), each Run is saved like an
// evalrun run: same fingerprint (suite digest), so the next run finds it as
// its baseline, and evaldash shows it. The DATABASE_URL of the application
// under test is deliberately not used: saving evaluation history is opt-in.
// PostgreSQL tables must exist (evalrun db:migrate); SQLite files are
// created and migrated on first use.
//
// Run goes through the pipeline of evalrun run (the eval package): the
// baseline is looked up before any agent call, and the saved run is
// compared with it and gated as evalrun gates it. The gate is evalrun's
// gate flags as options or environment variables (an option wins over its
// variable):
//
//	evalrun run flag       option               environment
//	--gate ci|strict       Gate(mode)           EVALTEST_GATE (default ci)
//	--tolerance T          Tolerance(t)         EVALTEST_TOLERANCE
//	--alpha A              Alpha(a)             EVALTEST_ALPHA
//	--min-effect D         MinEffect(d)         EVALTEST_MIN_EFFECT
//	--baseline RUN_ID      Baseline(id)         EVALTEST_BASELINE
//	--fail-on RULE         FailOn(rule)         EVALTEST_FAIL_ON (default failures)
//	--fail-on-regression   FailOnRegression()   EVALTEST_FAIL_ON_REGRESSION=1
//
// By default (the ci gate, fail on failures) findings are logged and a
// failed check fails its question; with FailOnRegression, or
// EVALTEST_FAIL_ON_REGRESSION=1 in CI, a gating regression fails the test
// even when every threshold still holds; under FailOn("regressions") only
// gating regressions fail, and failed checks are logged as not acted on.
// WithGateLabels(path, minKappa) is evalrun's --gate-labels and
// --min-kappa: a judge metric the human labels do not vouch for does not
// gate. Rules that act on regressions, Baseline and WithGateLabels need a
// database. The log
// ends with the line evalrun run would end with ("gate decision: exit 1:
// …"), which Result.Decision holds.
//
// # go test flags
//
// The question subtests are parallel subtests: Run asks the selected
// questions concurrently (WithConcurrency) and the subtests report when the
// test function that called Run returns. -run and -skip select questions
// (a subset is its own definition, as evalrun run --only), -count repeats
// the run, -short skips judge-backed checks (a run without its judge
// metrics is also its own definition, never the baseline of a full run)
// and -json carries every question as its own test event.
package evaltest

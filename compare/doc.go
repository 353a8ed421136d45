// Package compare decides what a run means against its history: it finds
// the baseline, compares the run with it under the strict or the ci gate
// (paired statistics, flakiness) and says which findings gate.
//
// # Gates
//
// Compare reads a run against its baseline under one of two gates.
//
// GateStrict (the default) is the Ruby gem's rule, unchanged: every
// per-question score drop beyond the tolerance, every newly failed minimum
// and every new error (agent or metric) is a gating finding. With an LLM
// judge, whose verdicts vary from run to run, questions near their minimum
// flip on noise alone, so strict regresses nearly every judged run.
//
// GateCI tells judge noise from regressions. For every metric it computes a
// MetricTest against the baseline:
//
//   - the one-sided paired test of the per-question differences candidate
//     minus baseline, over the questions both runs scored without error
//     (PairedDropTest: the exact sign-flip test up to 16 non-zero
//     differences, valid at any n; the paired t-test above);
//   - for judge-backed metrics, the exact one-sided McNemar test of the
//     pass→fail against fail→pass flips (McNemar), and the share of the
//     run's verdicts that ended in an error.
//
// A judge-backed metric is one whose name is an evaluator type the judges
// registry marks NeedsJudge, or one the runs' evidence
// (response_metadata.judge_usage) shows a judge scored; Options.Judged
// overrides this. Under the ci gate:
//
//   - a metric regresses (MetricDrop) when the paired test's p-value is
//     below alpha and the mean drop is at least the min effect (defaults
//     DefaultAlpha and DefaultMinEffect); a judge metric also regresses
//     (MetricFlips) when the McNemar p-value is below alpha. A judge metric
//     runs both tests at alpha/2 (Bonferroni), so an unchanged metric
//     raises a false alarm at most alpha of the time;
//   - a judge metric with more than MaxJudgeErrorShare of its verdicts in
//     error, in the run or in the baseline, is NotMeasurable, which gates:
//     an outage never passes;
//   - per-question findings of judge metrics (new failures, drops, new
//     metric errors) gate one by one only through the question tests of
//     "Localized regressions" below; per-question score drops of any
//     metric otherwise gate only through the metric's test;
//   - a deterministic or action check that newly fails or errors, and a new
//     agent error, gate by themselves;
//   - judged findings of a question flaky at the run's own commit
//     (Options.Flaky, see FlakyQuestions) do not gate one by one; the
//     question still counts in the metric tests. Flakiness never softens a
//     deterministic, action, trajectory or trace check, nor an agent error.
//
// Every ci finding carries Why, the reason it gates or does not, e.g.
// "not gating: judge metrics gate in aggregate; semantic_accuracy within
// noise: p = 0.41, mean change −0.006 over 200 questions". The tests are
// computed under both gates and shown in the metric tables; only ci acts
// on them.
//
// # Localized regressions
//
// A change that breaks a few questions, or one kind of question, moves
// them a lot and the mean a little. Under the ci gate two more families
// of tests look for it (Localization):
//
//   - question tests: with repeats, each judge-scored question's
//     difference is tested against its own within-question variance
//     moderated toward the suite's pooled one (priorDF degrees of freedom
//     of prior weight); without, each judge metric gets one TailTest, a
//     sign-flip test of its largest changes that holds its α whatever the
//     shape of the judge's errors, naming the questions whose drop from
//     the median is larger than every rise (needs minSpreadPairs
//     questions). Holm-corrected over every test of the family. A finding
//     (QuestionDropKind) reads "refunds-3 · semantic_accuracy: −0.410,
//     beyond noise (z = 4.2, Holm-adjusted p = 0.004)" or, from the tail
//     test, "… a drop larger than any rise (sign-flip test of the largest
//     changes: …)";
//   - slice tests: the paired drop test per value of a case metadata key
//     (Options.SliceBy, default failure_mode) and judge metric, on slices
//     of at least minSlicePairs questions that are not the whole suite,
//     Holm-corrected over every slice and metric; above 16 non-zero
//     differences random sign flips replace the t-test, which is too
//     generous that far in the tail. A finding (SliceDropKind) names the
//     slice, its size, the mean change and p.
//
// The gate's alpha is shared so that all its tests together raise a false
// alarm at most alpha of the time (Bonferroni across families, Holm
// within): the aggregate tests keep alpha when no localized family runs;
// otherwise they get alpha/2 (alpha/4 each for scores and flips) and the
// families that run share the other half. Each finding needs a drop of
// at least the min effect. When the aggregate test cannot see a mean drop
// of the min effect with power 0.8, Localization.Power says so once per
// metric with the smallest drop it sees, the smallest drop of one question
// the question tests see and the repeats that would make the min effect
// visible. Regressions are counted in questions everywhere
// (GatingCount); metric and slice findings are named, not counted
// (RegressionText).
//
// # Flaky questions
//
// FlakyQuestions reads the last FlakyWindow compatible runs before a run
// (the automatic baseline rule: same suite, agent and definition, runs marked
// as infrastructure failures skipped), keeps those made from the run's own
// clean commit (provenance; the gem's runs and dirty checkouts record none)
// and marks the questions whose outcome went back and forth between
// passing and failing (failed or error) at least twice: one flip is a
// change, and runs of different commits are changes and fixes, never
// noise. The run's own change is not counted, since that is what the gate
// judges. Every report format shows the mark:
// text, Markdown and HTML next to the question, JSON as the case's
// "flaky" object, JUnit as a testcase property "flaky", GitHub as one
// notice listing them.
//
// # One finding per question
//
// RegressionsByQuestion merges a question's findings; text, Markdown and
// HTML reports list one line per question and GitHub output writes at most
// one annotation per question (its failure and regressions together).
//
// # A/B verdict
//
// AB (`evalrun compare A B` and the dashboard's compare page) reads
// B against A as if A were B's baseline, always with the ci gate, and tests
// the paired quality difference B-A in both directions with the same
// paired test (alpha and min effect from the options):
//
//   - no question evaluated in both runs: "not comparable";
//   - a significant drop of at least the min effect: "B is worse";
//   - a significant rise of at least the min effect: "B is better" when
//     nothing regressed under the ci gate, else "mixed: B is better on
//     average but regressed";
//   - otherwise "B regressed" when something regressed under the ci gate,
//     else "no significant difference".
//
// The verdict detail names the newly failing, erroring and passing
// questions, the number of regressions, the questions that dropped within
// noise, the bootstrap interval and the p-value, for example "1 question
// newly fails, 1 regression (quality difference -0.333, 95% CI [-1.000,
// 0.000], p = 0.5 for a drop, not significant on 3 questions)". A
// deterministic regression is never summed up as "no significant
// difference", and judge noise never as a regression.
//
// # Slices in CI output
//
// Slices by metadata.failure_mode and by each string of metadata.tags
// appear wherever totals do. GitHub output adds one ::notice per slice
// after the totals notice, titled "SUITE / AGENT: slice KEY=VALUE", for
// example "slice failure_mode=policy_lookup" or "slice tag=returns"; its
// message has the slice's counts, quality and pass rate, and with a
// baseline the baseline quality and the number of the slice's questions
// that regressed (each question once, however many of its metrics
// regressed, gating or not). JUnit adds testsuite properties named
// slice.KEY=VALUE.STAT, with STAT one of quality (three decimals),
// pass_rate (a fraction with three decimals, as the run's pass_rate
// property) and, with a baseline, regressions (the same count of
// questions); "n/a" when nothing in the slice was evaluated. KEY is
// failure_mode or tag; a name splits unambiguously at the first "=" and
// the last ".", since VALUE (untrusted, control characters removed) may
// hold either.
//
// # Numbers
//
// Scores, quality, minimums, deltas and intervals are shown with three
// decimals everywhere; pass rates as percentages.
//
// # Repeats and infrastructure failures
//
// A run answered K > 1 times per question (evalrun run --repeat K) has one
// case row per question whose metric scores are the means of the repeats;
// Repeats reads K, pass@k, pass^k and each metric's within-question sd
// from the cases' response_metadata (repeat_scores, pass_at_k,
// pass_hat_k), and every report format shows them.
//
// The one fact taken from a summary is the mark the runner writes when
// every agent call or every judge call failed from infrastructure
// (InfrastructureFailure): an automatic baseline is never a run marked as
// an infrastructure failure; pass --baseline to use one anyway.
//
// The package reads models records only; it never writes evidence and has no
// command-line concerns, so the dashboard reuses it as is.
package compare

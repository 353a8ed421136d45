// Package reports turns persisted runs into evidence people and CI can act
// on: baseline selection (same suite, agent and definition, never from the
// future), the regression comparison of a run with its baseline, bootstrap
// confidence intervals, slices by failure mode and tag, and renderers for
// the JSON snapshot, Markdown, plain text, standalone HTML, JUnit XML and
// GitHub Actions annotations.
//
// Every number is computed from the case and metric rows, never taken from
// a run's summary, so runs written by another implementation (the Ruby gem)
// with summaries this package does not know still report correctly. A score
// that was not calculated stays absent: it is never drawn or counted as 0.
//
// Text, Markdown and HTML reports also show each case's strict API replay
// evidence (response_metadata.api_replay): a one-line verdict, and for a
// failure the observed requests, their differences and the declared
// requests never made. The evidence is read tolerantly, without importing
// the replay package; shapes it does not know are shown as compact JSON.
//
// # A/B verdict
//
// CompareAB (`evalrun compare A B` and the dashboard's compare page) reads
// B against A as if A were B's baseline, with the strict gate, and combines
// those findings with the 95% bootstrap interval of the paired quality
// difference B-A:
//
//   - no question evaluated in both runs: "not comparable";
//   - the interval lies wholly below zero: "B is worse";
//   - the interval lies wholly above zero: "B is better" when nothing
//     regressed, else "mixed: B is better on average but regressed";
//   - otherwise "B regressed" when a question newly fails or errors or a
//     score dropped, else "no significant difference".
//
// The verdict detail always names the newly failing, erroring and passing
// questions, the number of regressions and the interval, for example "1
// question newly fails, 2 regressions (quality difference -0.333, 95% CI
// [-1.000, 0.000], not significant on 3 questions)", so a regression is
// never summed up as "no significant difference".
//
// # Slices in CI output
//
// Slices by metadata.failure_mode and by each string of metadata.tags
// appear wherever totals do. GitHub output adds one ::notice per slice
// after the totals notice, titled "SUITE / AGENT: slice KEY=VALUE", for
// example "slice failure_mode=policy_lookup" or "slice tag=returns"; its
// message has the slice's counts, quality and pass rate, and with a
// baseline the baseline quality and the number of regressions. JUnit adds
// testsuite properties named slice.KEY=VALUE.STAT, with STAT one of
// quality (three decimals), pass_rate (a fraction with three decimals, as
// the run's pass_rate property) and, with a baseline, regressions (a
// count); "n/a" when nothing in the slice was evaluated. KEY is
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
package reports

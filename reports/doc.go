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
// The package reads models records only; it never writes evidence and has no
// command-line concerns, so the dashboard reuses it as is.
package reports

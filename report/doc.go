// Package report renders runs and their comparisons for people and CI:
// the JSON snapshot, Markdown, plain text, standalone HTML, JUnit XML,
// GitHub Actions annotations and the experiment grid. What gates, and
// why, is decided by package compare.
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
package report

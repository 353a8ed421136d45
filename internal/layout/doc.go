// Package layout holds the test that keeps the package structure described
// in docs/architecture.md true: sizes, imports and the dashboard's and the
// evidence importer's dependencies (tests only).
package layout

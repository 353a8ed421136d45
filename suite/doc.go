// Package suite reads suite files: it loads and validates them, fingerprints
// their definitions, selects and shards their questions, records replay
// fixtures into new suites and exports stored runs as suites.
package suite

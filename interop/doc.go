// Package interop holds the Rails interop test: Debian's Ruby with
// ActiveRecord 6.1 and pg (scripts under ruby/) and this module's Go code
// write and read the same PostgreSQL tables, and every value must match.
// Run it with `go test ./interop/...`; it needs `ruby`, `ruby-activerecord`
// and `ruby-pg` (apt-get install -y ruby ruby-activerecord ruby-pg) and
// starts its PostgreSQL through internal/testkit/testdb.
package interop

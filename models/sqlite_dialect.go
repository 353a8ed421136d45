package models

import (
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/uptrace/bun/dialect/sqlitedialect"
)

// sqliteDialect is bun's SQLite dialect writing string literals in one
// copy: bun formats every value into the statement's text, and its
// literal is written one rune at a time, which a traced case's
// response_metadata (hundreds of kilobytes) pays per byte. The literal is
// the same bytes: quotes doubled, valid UTF-8 as it is; any other string
// (invalid UTF-8, which bun replaces rune by rune, or a NUL, which it
// refuses) is left to bun.
type sqliteDialect struct{ *sqlitedialect.Dialect }

// AppendString appends s as a quoted SQL string literal.
func (d sqliteDialect) AppendString(b []byte, s string) []byte {
	if strings.IndexByte(s, 0) >= 0 || !utf8.ValidString(s) {
		return d.Dialect.AppendString(b, s)
	}
	if need := len(s) + 2 + strings.Count(s, "'"); cap(b)-len(b) < need {
		// the statement holds a batch of rows: grow it by doubling, not
		// by each value, so a batch of large values is copied O(1) times
		b = slices.Grow(b, max(need, cap(b)))
	}
	b = append(b, '\'')
	for {
		i := strings.IndexByte(s, '\'')
		if i < 0 {
			break
		}
		b = append(append(b, s[:i+1]...), '\'')
		s = s[i+1:]
	}
	return append(append(b, s...), '\'')
}

package models

import (
	"bytes"
	"testing"

	"github.com/uptrace/bun/dialect/sqlitedialect"
)

// TestSQLiteDialect_AppendStringAsBun: the one-copy literal is bun's,
// byte for byte, whatever the string holds.
func TestSQLiteDialect_AppendStringAsBun(t *testing.T) {
	base := sqlitedialect.New()
	fast := sqliteDialect{base}
	for _, s := range []string{"", "plain", "it's", "''", "'", "a'b'c'", `{"k":"v's","u":"é€😀"}`, "tab\tnew\nline",
		"bad \xff utf-8 '", "nul \x00 byte", "\xed\xa0\x80 surrogate", "trailing é"} {
		want := base.AppendString([]byte("x="), s)
		if got := fast.AppendString([]byte("x="), s); !bytes.Equal(got, want) {
			t.Errorf("AppendString(%q) = %q, bun writes %q", s, got, want)
		}
	}
}

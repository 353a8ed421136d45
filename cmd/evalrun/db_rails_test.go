package main

import (
	"regexp"
	"strings"
	"testing"
)

// TestDBRailsMigration_SaysPostgreSQL: the migration uses jsonb, bigserial
// and uuid columns, so both its help and its first lines say it targets
// PostgreSQL; it is still printed (nothing is refused).
func TestDBRailsMigration_SaysPostgreSQL(t *testing.T) {
	t.Setenv("DATABASE_URL", "")
	code, out, stderr := evalrun(t, "help", "db:rails-migration")
	if code != exitOK || !strings.Contains(out, "targets PostgreSQL only") {
		t.Errorf("help: exit %d, want 0 saying the migration targets PostgreSQL only\n%s%s", code, out, stderr)
	}
	code, out, stderr = evalrun(t, "--database-url", "sqlite:"+t.TempDir()+"/x.sqlite3", "db:rails-migration")
	head, _, _ := strings.Cut(out, "class CreateRubyLlmEvaluations")
	if code != exitOK || !strings.Contains(head, "# PostgreSQL only") {
		t.Errorf("migration: exit %d, want 0 with a PostgreSQL-only comment before the class\n%s%s", code, out, stderr)
	}
}

// TestDBRailsMigration_ClassName: an app that already ran the migration
// prints the upgrade under another class name; a name Ruby cannot take is
// refused with exit 2.
func TestDBRailsMigration_ClassName(t *testing.T) {
	t.Setenv("DATABASE_URL", "")
	code, out, stderr := evalrun(t, "db:rails-migration", "--class-name", "UpgradeRubyLlmEvaluations2")
	if code != exitOK || !strings.Contains(out, "class UpgradeRubyLlmEvaluations2 < ActiveRecord::Migration[6.1]") {
		t.Errorf("--class-name: exit %d\n%s%s", code, out, stderr)
	}
	// Rails loads db/migrate/<UTC timestamp>_<class in snake case>.rb only.
	if !regexp.MustCompile(`(?m)^# Save as db/migrate/20\d{12}_upgrade_ruby_llm_evaluations2\.rb `).MatchString(out) {
		t.Errorf("the migration does not name its Rails file:\n%.300s", out)
	}
	if code, _, stderr := evalrun(t, "db:rails-migration", "--class-name", "upgrade; system('x')"); code != exitInvalid || !strings.Contains(stderr, "--class-name") {
		t.Errorf("invalid --class-name: exit %d, want %d naming the flag\n%s", code, exitInvalid, stderr)
	}
}

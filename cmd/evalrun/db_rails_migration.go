package main

import (
	"fmt"
	"io"
	"strings"
	"time"
	"unicode"

	"github.com/agentevals-go/agentevals/schema"
)

// RailsMigrationCmd prints a Rails migration creating or upgrading the contract.
type RailsMigrationCmd struct {
	ClassName string `name:"class-name" default:"CreateRubyLlmEvaluations" help:"Class name of the migration; give a new one (e.g. UpgradeRubyLlmEvaluations2) when the app already has a migration of this name, since Rails refuses two migrations of one name."`
}

// Help is the command's detailed help.
func (c *RailsMigrationCmd) Help() string {
	return "The migration targets PostgreSQL only (jsonb, bigserial and uuid columns), " +
		"as the Ruby gem requires PostgreSQL; for SQLite use db:migrate. " +
		"It creates the tables that do not exist and upgrades the ones that do, each step guarded by what exists: " +
		"a 0.1-era criteria column becomes minimum_scores with every row kept, and missing columns, '{}' defaults, " +
		"indexes (recognised by their columns, not their names) and foreign keys (added without validating old rows) are added. " +
		"It is idempotent and never drops anything. Save it under db/migrate and run bin/rails db:migrate; " +
		"to upgrade an app that already ran an older version of it, save it again under a new timestamp with a new --class-name. " +
		"It coexists with the gem's own ruby_llm_evaluations:install:migrations: whichever runs first creates the tables, " +
		"the other finds them and adds only what is missing."
}

// Run prints the migration; it needs no database.
func (c *RailsMigrationCmd) Run(g *Globals) error {
	if !schema.ValidRubyClass(c.ClassName) {
		return &exitError{Code: exitInvalid, Err: fmt.Errorf("--class-name %q: want a Ruby class name (a capital letter, then letters, digits or _)", c.ClassName)}
	}
	header := fmt.Sprintf("# Save as db/migrate/%s and run bin/rails db:migrate\n", railsMigrationFile(c.ClassName, time.Now()))
	_, err := io.WriteString(g.Stdout, header+schema.RailsMigrationNamed(c.ClassName))
	return err
}

// railsMigrationFile is the file name Rails expects for a migration class:
// a UTC timestamp (YYYYMMDDHHMMSS), then the class name in snake case.
func railsMigrationFile(class string, now time.Time) string {
	var b strings.Builder
	for i, r := range class {
		if unicode.IsUpper(r) && i > 0 {
			b.WriteByte('_')
		}
		b.WriteRune(unicode.ToLower(r))
	}
	return now.UTC().Format("20060102150405") + "_" + b.String() + ".rb"
}

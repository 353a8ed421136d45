package main

import (
	"fmt"
	"slices"

	"github.com/alecthomas/kong"
)

// HelpCmd prints the help of evalrun or of a command: "evalrun help run"
// is "evalrun run --help".
type HelpCmd struct {
	Command []string `arg:"" optional:"" name:"command" help:"Command to explain, e.g. run or db:migrate."`
}

// Run prints the help.
func (c *HelpCmd) Run(kctx *kong.Context) error {
	target, err := kong.Trace(kctx.Kong, c.Command)
	if err != nil {
		return &exitError{Code: exitInvalid, Err: err}
	}
	if target.Error != nil {
		return &exitError{Code: exitInvalid, Err: fmt.Errorf("help: %w", target.Error)}
	}
	return target.PrintUsage(false)
}

// flagGroups title the flag groups of --help, in the order run lists them:
// the gate and reports first, the database last.
var flagGroups = []kong.Group{
	{Key: "gate", Title: "Gate, baseline and reports:"},
	{Key: "questions", Title: "Which questions, and how they are asked:"},
	{Key: "judge", Title: "Judge:"},
	{Key: "save", Title: "Saving and evidence:"},
	{Key: "record", Title: "Recording replay fixtures:"},
	{Key: "traces", Title: "Traces:"},
	{Key: "calibration", Title: "Calibration gate:"},
	{Key: "database", Title: "Database:"},
}

// databaseFlags says which of the shared database flags each command
// reads; a command not listed reads none, and its help shows none.
func databaseFlags(command string) map[string]bool {
	open := map[string]bool{"database-url": true, "connect-timeout": true, "statement-timeout": true}
	save := map[string]bool{"database-url": true, "connect-timeout": true, "statement-timeout": true, "save-wait": true}
	switch command {
	case "run", "experiment", "db:import":
		return save
	case "history", "suite export", "report", "compare", "grid", "label", "calibrate", "db:migrate", "db:check":
		return open
	}
	return nil
}

// mostUsed ranks the flags listed first in their group: the gate, the
// exit rule and the reports before the finer settings.
func mostUsed(name string) int {
	for i, n := range []string{"gate", "fail-on", "fail-on-regression", "report", "baseline", "junit"} {
		if n == name {
			return i
		}
	}
	return 100
}

// helpPrinter is kong's help with each command's own flags first and the
// shared database flags last, only those the command reads: the model is
// rearranged for the printing and put back after it.
func helpPrinter(options kong.HelpOptions, kctx *kong.Context) error {
	node := kctx.Selected()
	if node == nil {
		return kong.DefaultHelpPrinter(options, kctx)
	}
	app, own := kctx.Model.Node, node.Flags
	shared := app.Flags
	defer func() { app.Flags, node.Flags = shared, own }()
	reads := databaseFlags(node.FullPath()[len(app.Name)+1:])
	var kept, db []*kong.Flag
	for _, f := range shared {
		switch {
		case f.Group == nil || f.Group.Key != "database":
			kept = append(kept, f)
		case reads[f.Name]:
			db = append(db, f)
		}
	}
	app.Flags = kept
	node.Flags = append(append([]*kong.Flag{}, own...), db...)
	slices.SortStableFunc(node.Flags, func(a, b *kong.Flag) int { return mostUsed(a.Name) - mostUsed(b.Name) })
	return kong.DefaultHelpPrinter(options, kctx)
}

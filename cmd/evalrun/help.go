package main

import (
	"fmt"

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

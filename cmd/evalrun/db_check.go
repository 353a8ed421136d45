package main

import (
	"context"
	"fmt"
	"strings"

	"github.com/agentevals-go/agentevals/schema"
)

// DBCheckCmd compares the live schema with the contract.
type DBCheckCmd struct{}

// Run prints every difference and exits 2 when one is incompatible.
func (c *DBCheckCmd) Run(ctx context.Context, g *Globals) error {
	db, err := g.connect(ctx, true)
	if err != nil {
		return err
	}
	defer db.Close()
	rep, err := schema.Check(ctx, db)
	if err != nil {
		return err
	}
	if err := rep.Write(g.Stdout); err != nil {
		return err
	}
	if bad := rep.Incompatible(); len(bad) > 0 {
		names := make([]string, len(bad))
		for i, d := range bad {
			names[i] = d.Table
			if d.Column != "" {
				names[i] += "." + d.Column
			}
		}
		return &exitError{Code: exitInvalid, Err: fmt.Errorf("schema not usable: %s", strings.Join(names, ", "))}
	}
	return nil
}

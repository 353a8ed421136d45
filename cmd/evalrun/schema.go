package main

import "github.com/agentevals-go/agentevals/suite"

// SchemaCmd prints the JSON Schema of suite files (committed as
// docs/suite.schema.json).
type SchemaCmd struct{}

// Run prints the schema.
func (c *SchemaCmd) Run(g *Globals) error {
	_, err := g.Stdout.Write(suite.JSONSchema())
	return err
}

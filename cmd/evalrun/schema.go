package main

import (
	"github.com/agentevals-go/agentevals/monitor"
	"github.com/agentevals-go/agentevals/suite"
)

// SchemaCmd prints the JSON Schema of suite files (committed as
// docs/suite.schema.json), or of monitor files.
type SchemaCmd struct {
	Monitor bool `name:"monitor" help:"Print the schema of monitor files (evalrun score-traces) instead."`
}

// Run prints the schema.
func (c *SchemaCmd) Run(g *Globals) error {
	schema := suite.JSONSchema()
	if c.Monitor {
		schema = monitor.JSONSchema()
	}
	_, err := g.Stdout.Write(schema)
	return err
}

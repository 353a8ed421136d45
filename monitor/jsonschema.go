package monitor

import (
	"bytes"
	_ "embed"
	"encoding/json"
	"fmt"

	"github.com/agentevals-go/agentevals/suite"
)

//go:embed monitor.schema.json
var monitorSchema []byte

// JSONSchema returns the JSON Schema of monitor files: the hand-written
// monitor.schema.json with the check definitions of the suite schema, so
// the checks an editor offers are the ones Load accepts.
func JSONSchema() []byte {
	b, err := generate(suite.JSONSchema())
	if err != nil { // both inputs are committed files; a test covers this
		panic(fmt.Sprintf("generate monitor schema: %v", err))
	}
	return b
}

func generate(suiteSchema []byte) ([]byte, error) {
	var top, st map[string]any
	if err := json.Unmarshal(monitorSchema, &top); err != nil {
		return nil, err
	}
	if err := json.Unmarshal(suiteSchema, &st); err != nil {
		return nil, err
	}
	top["$schema"], top["$defs"] = st["$schema"], st["$defs"]
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	if err := enc.Encode(top); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

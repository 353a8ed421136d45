package runner

import _ "embed"

//go:embed suite.schema.json
var suiteSchema []byte

// JSONSchema returns the JSON Schema of suite files (a copy is committed as
// docs/suite.schema.json for editors). It is self-contained: the schema of
// api_interactions (replay.JSONSchema) is inlined under $defs, its root as
// api_interactions and its definitions prefixed with api_, so editors
// validate replay declarations offline.
func JSONSchema() []byte { return append([]byte(nil), suiteSchema...) }

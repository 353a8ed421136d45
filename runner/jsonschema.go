package runner

import _ "embed"

//go:embed suite.schema.json
var suiteSchema []byte

// JSONSchema returns the JSON Schema of suite files (a copy is committed as
// docs/suite.schema.json for editors).
func JSONSchema() []byte { return append([]byte(nil), suiteSchema...) }

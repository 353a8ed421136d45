package replay

import _ "embed"

//go:embed fixtures.schema.json
var fixturesSchema []byte

// JSONSchema returns the JSON Schema (draft 2020-12) of a question's
// api_interactions value, for editors and the suite schema. Load is the
// authority: it also checks what a schema cannot (readable, UTF-8, JSON
// body files; header name syntax).
func JSONSchema() []byte { return append([]byte(nil), fixturesSchema...) }

package compare

import (
	"encoding/json"

	"github.com/agentevals-go/agentevals/models"
	"github.com/agentevals-go/agentevals/score"
)

// JSONEqual compares two JSON column values as JSON values (score.JSONEqual,
// that is jsonvalue.Equal): key order and whitespace do not matter, numbers
// are equal when their exact decimal values are (1.0 == 1 and 1e2 == 100,
// as Ruby writes floats and jsonb compares numerics; but
// 0.1000000000000000001 != 0.1 and two 20-digit integers that differ in the
// last digit differ, with no float64 in between). SQL NULL and JSON null are
// alike; for object columns (metadata) they also equal {}.
func JSONEqual(a, b models.JSON, object bool) (bool, error) {
	return score.JSONEqual(columnValue(a, object), columnValue(b, object))
}

// columnValue is the JSON document of a column: null for SQL NULL, and {}
// for a null object column.
func columnValue(j models.JSON, object bool) json.RawMessage {
	switch {
	case !j.IsNull():
		return json.RawMessage(j)
	case object:
		return json.RawMessage("{}")
	}
	return json.RawMessage("null")
}

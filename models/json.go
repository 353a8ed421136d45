package models

import (
	"bytes"
	"database/sql/driver"
	"encoding/json"
	"fmt"
	"strconv"
)

// JSON is the value of a json/jsonb column. A nil JSON is SQL NULL; the
// four bytes "null" are JSON null. Both read as "no value" through IsNull, but
// they are written back exactly as they are, so a NULL stays a NULL.
type JSON []byte

// NewJSON marshals v into a JSON column value. A nil interface gives JSON null.
func NewJSON(v any) (JSON, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return nil, fmt.Errorf("encode json column: %w", err)
	}
	return JSON(b), nil
}

// MustJSON is NewJSON for values that always marshal (maps of strings, numbers).
// It panics on a value that cannot be encoded, which is a programming error.
func MustJSON(v any) JSON {
	j, err := NewJSON(v)
	if err != nil {
		panic(err)
	}
	return j
}

// IsSQLNull reports whether the column held SQL NULL.
func (j JSON) IsSQLNull() bool { return j == nil }

// IsNull reports whether the column held SQL NULL or JSON null.
func (j JSON) IsNull() bool {
	return j == nil || bytes.Equal(bytes.TrimSpace(j), []byte("null"))
}

// Decode unmarshals the value into v. SQL NULL decodes like JSON null.
func (j JSON) Decode(v any) error {
	if j == nil {
		return json.Unmarshal([]byte("null"), v)
	}
	if err := json.Unmarshal(j, v); err != nil {
		return fmt.Errorf("decode json column: %w", err)
	}
	return nil
}

// Value implements driver.Valuer: nil is SQL NULL, anything else its text.
func (j JSON) Value() (driver.Value, error) {
	if j == nil {
		return nil, nil
	}
	return string(j), nil
}

// Scan implements sql.Scanner for text, bytes and NULL.
func (j *JSON) Scan(src any) error {
	switch v := src.(type) {
	case nil:
		*j = nil
	case []byte:
		*j = append(JSON{}, v...)
	case string:
		*j = JSON(v)
	case int64:
		// SQLite columns declared json have numeric affinity and hand back
		// numbers and booleans as SQL values; they are still JSON.
		*j = JSON(strconv.FormatInt(v, 10))
	case float64:
		*j = JSON(strconv.FormatFloat(v, 'g', -1, 64))
	case bool:
		*j = JSON(strconv.FormatBool(v))
	default:
		return fmt.Errorf("scan json column: unsupported type %T", src)
	}
	return nil
}

// MarshalJSON writes the raw value; SQL NULL becomes JSON null.
func (j JSON) MarshalJSON() ([]byte, error) {
	if j == nil {
		return []byte("null"), nil
	}
	return j, nil
}

// UnmarshalJSON keeps the raw bytes (JSON null stays "null").
func (j *JSON) UnmarshalJSON(b []byte) error {
	*j = append(JSON{}, b...)
	return nil
}

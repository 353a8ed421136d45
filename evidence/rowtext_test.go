package evidence

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/agentevals-go/agentevals/models"
)

// TestRowText_AsIndentedRows: a row's text is what indenting the row's
// encoded columns as one object writes, whatever the JSON columns hold.
func TestRowText_AsIndentedRows(t *testing.T) {
	reason, score := "a <b> & \u2028 c", 0.25
	tests := []struct {
		name string
		json models.JSON
	}{
		{"compact", models.JSON(`{"a":[1,2,{"b":null}],"c":{}}`)},
		{"spaced", models.JSON(" {\n \"a\" : [ ] , \"b\":\t{ } }\n ")},
		{"html and separators", models.JSON(`{"x":"<script>&amp;</script>","y":"` + "\u2028\u2029" + `"}`)},
		{"escapes kept", models.JSON(`{"x":"\u003c\ud800\u0000\n"}`)},
		{"invalid utf-8", models.JSON("{\"x\":\"a\xffb\"}")},
		{"json null", models.JSON(`null`)},
		{"string", models.JSON(`"plain"`)},
		{"sql null", nil},
	}
	cols := fileColumns()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := &models.CaseResult{CaseID: "q<1>", Name: "n & m", Status: "passed", Metadata: models.JSON(`{}`),
				Output: tt.json, ResponseMetadata: tt.json, Actions: models.JSON(`[]`)}
			m := &models.MetricResult{Name: "exact", Score: &score, Reason: &reason, ErrorDetails: tt.json}
			for _, r := range []struct {
				rec   any
				cols  []column
				extra map[string]json.RawMessage
			}{{c, cols.cases, nil}, {m, cols.metrics, map[string]json.RawMessage{"case_position": json.RawMessage("3")}}} {
				row, err := encodeRow(r.rec, r.cols)
				if err != nil {
					t.Fatal(err)
				}
				for k, v := range r.extra {
					row[k] = v
				}
				want, err := indented(row, "  ")
				if err != nil {
					t.Fatal(err)
				}
				var got bytes.Buffer
				if err := rowText(&got, r.rec, r.cols, "  ", r.extra); err != nil {
					t.Fatal(err)
				}
				if !bytes.Equal(got.Bytes(), want) {
					t.Errorf("rowText:\n%s\nindented rows:\n%s", got.Bytes(), want)
				}
			}
		})
	}
}

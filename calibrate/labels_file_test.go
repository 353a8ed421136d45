package calibrate

import (
	"errors"
	"strings"
	"testing"
)

// TestParseLabels_RefusesOddlyShapedLines: a repeated key, nesting deeper
// than the limit, invalid UTF-8 and a line over the length limit are
// refused with the line and what was wrong, the limit named.
func TestParseLabels_RefusesOddlyShapedLines(t *testing.T) {
	ok := `{"case_id":"c0","metric":"m","pass":true}` + "\n"
	for _, tc := range []struct{ name, in, want string }{
		{"repeated key", ok + `{"case_id":"c1","metric":"m","pass":true,"pass":false}`, `line 2: key "pass" appears twice`},
		{"repeated nested key", ok + `{"case_id":"c1","metric":"m","pass":true,"why":{"a":1,"b":[{"a":1}],"a":2}}`, `line 2: key "a" appears twice`},
		{"deep nesting", ok + `{"case_id":"c1","metric":"m","pass":true,"why":` + strings.Repeat("[", 5000) + strings.Repeat("]", 5000) + "}", "line 2:"},
		{"invalid UTF-8", ok + "{\"case_id\":\"c\xff\",\"metric\":\"m\",\"pass\":true}", "line 2: " + "byte 13"},
		{"line too long", ok + `{"case_id":"` + strings.Repeat("x", maxLabelLine) + `","metric":"m","pass":true}`, "line 2: longer than the limit of 4194304 bytes"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ParseLabels(strings.NewReader(tc.in))
			if !errors.Is(err, ErrInvalidLabels) || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("err = %.300v, want ErrInvalidLabels with %q", err, tc.want)
			}
		})
	}
	same := ok + `{"case_id":"c1","metric":"m","pass":true,"why":{"a":1,"b":{"a":2}},"note":"a"}`
	if labels, err := ParseLabels(strings.NewReader(same)); err != nil || len(labels) != 2 {
		t.Errorf("a key repeated in different objects: %v, %v; want both labels", labels, err)
	}
}

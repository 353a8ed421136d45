package dashboard

import (
	"testing"

	"github.com/agentevals-go/agentevals/models"
)

// TestSideBySide: the case page's action table matches calls by the action
// metric's rule: groups only when both calls give one, arguments partially
// when the metric compared them so.
func TestSideBySide(t *testing.T) {
	for _, tc := range []struct {
		name               string
		expected, observed string
		partial            bool
		want               string
	}{
		{name: "expected call without a group", expected: `[{"name": "lookup", "arguments": {"id": 1}}]`,
			observed: `[{"group": "orders", "name": "lookup", "arguments": {"id": 1}}]`, want: "match"},
		{name: "observed call from spans", expected: `[{"group": "orders", "name": "lookup", "arguments": {"id": 1}}]`,
			observed: `[{"name": "lookup", "arguments": {"id": 1}}]`, want: "match"},
		{name: "groups both given differ", expected: `[{"group": "orders", "name": "lookup"}]`,
			observed: `[{"group": "billing", "name": "lookup"}]`, want: "differs"},
		{name: "partial arguments matched", expected: `[{"name": "search", "arguments": {"q": "tea"}}]`,
			observed: `[{"name": "search", "arguments": {"q": "tea", "limit": 5}}]`, partial: true, want: "match"},
		{name: "exact arguments differ", expected: `[{"name": "search", "arguments": {"q": "tea"}}]`,
			observed: `[{"name": "search", "arguments": {"q": "tea", "limit": 5}}]`, want: "differs"},
		{name: "extra", expected: `[]`, observed: `[{"name": "search"}]`, want: "extra"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rows := sideBySide(models.JSON(tc.expected), models.JSON(tc.observed), tc.partial)
			if len(rows) != 1 || rows[0].State != tc.want {
				t.Errorf("rows = %+v, want one row %q", rows, tc.want)
			}
		})
	}
}

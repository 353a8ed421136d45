package report

import (
	"encoding/xml"
	"testing"

	"github.com/agentevals-go/agentevals/compare"
	"github.com/agentevals-go/agentevals/internal/testkit/runfixture"
)

// junitDoc reads what TestJUnit_CaseNamesAreIDs checks, including the
// testcase properties that go-junit-report's parser does not model.
type junitDoc struct {
	Cases []struct {
		Name       string `xml:"name,attr"`
		Classname  string `xml:"classname,attr"`
		Properties []struct {
			Name  string `xml:"name,attr"`
			Value string `xml:"value,attr"`
		} `xml:"properties>property"`
	} `xml:"testsuite>testcase"`
}

func parseJUnit(t *testing.T, c *compare.Comparison) junitDoc {
	t.Helper()
	b, err := mustRenderer(t).Bytes(FormatJUnit, c)
	if err != nil {
		t.Fatal(err)
	}
	var doc junitDoc
	if err := xml.Unmarshal(b, &doc); err != nil {
		t.Fatalf("%v\n%s", err, b)
	}
	return doc
}

// TestJUnit_CaseNamesAreIDs names testcases by case id: two questions with
// the same display name and text stay two tests, rewording a question keeps
// its test name (CI history), and the name and text move to properties.
func TestJUnit_CaseNamesAreIDs(t *testing.T) {
	same := func(text string) []runfixture.Case {
		return []runfixture.Case{
			{ID: "returns-eu", Name: "Return window", Question: text, Expected: "30 days", Output: "30 days",
				Metrics: []runfixture.Metric{runfixture.NewMetric("exact", 1, runfixture.Score(1))}},
			{ID: "returns-us", Name: "Return window", Question: text, Expected: "30 days", Output: "30 days",
				Metrics: []runfixture.Metric{runfixture.NewMetric("exact", 1, runfixture.Score(1))}},
			{ID: "hours", Question: "When are you open?", Expected: "9 to 5", Output: "9 to 5",
				Metrics: []runfixture.Metric{runfixture.NewMetric("exact", 1, runfixture.Score(1))}},
		}
	}
	before := parseJUnit(t, compare.Compare(runfixture.Build("01900000-0000-7000-8000-0000000000b1", 1, runfixture.T0, same("How long do I have to return an item?")...), nil, compare.Options{}))
	after := parseJUnit(t, compare.Compare(runfixture.Build("01900000-0000-7000-8000-0000000000b2", 2, runfixture.T0, same("Until when can I return an item?")...), nil, compare.Options{}))
	for _, doc := range []junitDoc{before, after} {
		if len(doc.Cases) != 3 {
			t.Fatalf("testcases = %d, want 3", len(doc.Cases))
		}
		for i, want := range []string{"returns-eu", "returns-us", "hours"} {
			if got := doc.Cases[i]; got.Name != want || got.Classname != "Customer support.SupportAgent" {
				t.Errorf("testcase %d = %q (class %q), want %q (class Customer support.SupportAgent)", i, got.Name, got.Classname, want)
			}
		}
	}
	props := map[string]string{}
	for _, p := range after.Cases[0].Properties {
		props[p.Name] = p.Value
	}
	if props["name"] != "Return window" || props["question"] != "Until when can I return an item?" {
		t.Errorf("testcase properties = %v, want the display name and the question text", props)
	}
	// The name defaults to the id in runfixture.Build; a question equal to its
	// name is not repeated.
	if got := after.Cases[2].Properties; len(got) != 2 || got[0].Value != "hours" || got[1].Value != "When are you open?" {
		t.Errorf("hours properties = %+v", got)
	}
}

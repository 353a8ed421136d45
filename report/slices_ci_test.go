package report

import (
	"strings"
	"testing"

	"github.com/agentevals-go/agentevals/compare"
	"github.com/agentevals-go/agentevals/internal/testkit/runfixture"
	"github.com/agentevals-go/agentevals/models"
)

// TestRenderer_SlicesInCIOutput: the GitHub notices and the JUnit properties
// carry the failure-mode and tag slices next to the totals, with untrusted
// slice values escaped so they cannot break out of a workflow command's
// title or an XML attribute.
func TestRenderer_SlicesInCIOutput(t *testing.T) {
	ref, bad := runfixture.SupportRuns()
	hostile := "a:b,c 50%\n::error::forged \"<x>\" v1.2=3"
	for _, run := range []*models.Run{ref, bad} {
		run.Cases[2].Metadata = models.MustJSON(map[string]any{"failure_mode": hostile, "tags": []string{"hours"}})
	}
	cmp := compare.Compare(bad, ref, compare.Options{})
	// The policy_lookup slice has one question that went wrong, with a
	// regression finding per failing metric: the slice counts the question
	// once (one finding per question), not its findings.
	if n := len(cmp.Regressions()); n < 2 || len(cmp.RegressionsByQuestion()) != 1 {
		t.Fatalf("%d regression findings in %d questions, want several in one", n, len(cmp.RegressionsByQuestion()))
	}
	r := mustRenderer(t)

	gh, err := r.Bytes(FormatGitHub, cmp)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"::notice title=Customer support / SupportAgent%3A slice failure_mode=policy_lookup::2 questions: 1 passed, 1 failed, 0 errors, 0 not evaluated; quality 0.500; pass rate 50.0%25; baseline quality 1.000; 1 regression\n",
		"::notice title=Customer support / SupportAgent%3A slice tag=hours::1 question: 1 passed, 0 failed, 0 errors, 0 not evaluated; quality 1.000; pass rate 100.0%25; baseline quality 1.000; 0 regressions\n",
		// "%" is sent as %25 and decoded by the runner; the newline and the
		// colons of the hostile value cannot end the title or start a command.
		"::notice title=Customer support / SupportAgent%3A slice failure_mode=a%3Ab%2Cc 50%25%0A%3A%3Aerror%3A%3Aforged \"<x>\" v1.2=3::1 question",
	} {
		if !strings.Contains(string(gh), want) {
			t.Errorf("GitHub output lacks %q:\n%s", want, gh)
		}
	}
	if n := strings.Count(string(gh), "slice "); n != 6 {
		t.Errorf("%d slice notices, want 6 (2 failure modes, 4 tags):\n%s", n, gh)
	}
	for _, line := range strings.Split(strings.TrimSpace(string(gh)), "\n") {
		if !strings.HasPrefix(line, "::") || strings.Contains(line, "::error::forged") {
			t.Errorf("line %q is not one of our annotations", line)
		}
	}

	x, err := r.Bytes(FormatJUnit, cmp)
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Suites []struct {
			Properties []struct {
				Name  string `xml:"name,attr"`
				Value string `xml:"value,attr"`
			} `xml:"properties>property"`
		} `xml:"testsuite"`
	}
	if err := xmlUnmarshal(x, &doc); err != nil {
		t.Fatalf("JUnit is not XML: %v\n%s", err, x)
	}
	props := map[string]string{}
	for _, p := range doc.Suites[0].Properties {
		props[p.Name] = p.Value
	}
	for name, want := range map[string]string{
		"slice.failure_mode=policy_lookup.quality":     "0.500",
		"slice.failure_mode=policy_lookup.pass_rate":   "0.500",
		"slice.failure_mode=policy_lookup.regressions": "1",
		"slice.tag=returns.quality":                    "0.000",
		"slice.tag=shipping.pass_rate":                 "1.000",
		// Control characters are removed from the name; XML escapes the rest.
		`slice.failure_mode=a:b,c 50% ::error::forged "<x>" v1.2=3.quality`: "1.000",
	} {
		if got, ok := props[name]; !ok || got != want {
			t.Errorf("property %q = %q (present %v), want %q; properties: %v", name, got, ok, want, props)
		}
	}
	// Without a baseline there is nothing to count regressions against.
	x, err = r.Bytes(FormatJUnit, compare.Compare(ref, nil, compare.Options{}))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(x), `name="slice.tag=hours.pass_rate" value="1.000"`) || strings.Contains(string(x), ".regressions") {
		t.Errorf("JUnit without a baseline:\n%s", x)
	}
}

package score

import (
	"context"
	"encoding/json"
	"regexp"
	"sort"
	"strings"
	"testing"
)

// docJudge is a Judge for building judge-backed types; it never scores.
type docJudge struct{}

func (docJudge) Assess(context.Context, string, string) (Assessment, error) {
	return Assessment{}, &Error{Kind: "unused", Message: "docJudge does not score"}
}

var quotedRE = regexp.MustCompile(`"([a-z_]+)"`)

// TestBuiltins_Documented checks that every built-in type has a summary,
// that its example params build, and that the documented params are
// exactly the ones the constructor accepts: an unknown param is refused
// with the list of accepted ones, which must equal Doc.Params.
func TestBuiltins_Documented(t *testing.T) {
	r := Builtins()
	for _, name := range r.Names() {
		t.Run(name, func(t *testing.T) {
			def := r[name]
			if def.Doc.Summary == "" {
				t.Fatal("no Doc.Summary")
			}
			if _, err := def.New(def.Doc.Example, docJudge{}); err != nil {
				t.Errorf("example params %s do not build: %v", def.Doc.Example, err)
			}
			var documented []string
			for _, p := range def.Doc.Params {
				documented = append(documented, p.Name)
				if p.Description == "" || p.Schema == nil {
					t.Errorf("param %s: no description or schema", p.Name)
				}
			}
			sort.Strings(documented)
			_, err := def.New(json.RawMessage(`{"zz_unknown": 1}`), docJudge{})
			if err == nil {
				t.Fatal("an unknown param was accepted")
			}
			msg := err.Error()
			var accepted []string
			switch {
			case strings.Contains(msg, "takes no params"):
			case strings.Contains(msg, "expected one of "):
				for _, m := range quotedRE.FindAllStringSubmatch(msg[strings.Index(msg, "expected one of "):], -1) {
					accepted = append(accepted, m[1])
				}
			case strings.Contains(msg, "takes only"), strings.Contains(msg, "wants"):
				for _, m := range quotedRE.FindAllStringSubmatch(msg, -1) {
					accepted = append(accepted, m[1])
				}
				if name == "llm_judge" {
					accepted = append(accepted, "position_swap") // its message names only the required rubric
				}
			default:
				t.Fatalf("cannot read the accepted params from %q", msg)
			}
			sort.Strings(accepted)
			if strings.Join(accepted, ",") != strings.Join(documented, ",") {
				t.Errorf("documented params %v, the constructor accepts %v", documented, accepted)
			}
		})
	}
}

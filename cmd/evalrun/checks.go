package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/agentevals-go/agentevals/internal/suggest"
	"github.com/agentevals-go/agentevals/sanitize"
	"github.com/agentevals-go/agentevals/score"
)

// CheckTypesCmd lists every check type with its params and an example.
type CheckTypesCmd struct {
	Type []string `arg:"" optional:"" name:"type" help:"Only these types (default: all)."`
}

// Help is the detail under "evalrun checks --help".
func (c *CheckTypesCmd) Help() string {
	return "Each type can be a suite evaluator ({\"type\": T, \"params\": {...}}) or a question's inline check " +
		"({\"type\": T, ...params}). The same list, typed, is in `evalrun schema` for editors."
}

// Run prints the types.
func (c *CheckTypesCmd) Run(g *Globals) error {
	reg := score.Builtins()
	names := c.Type
	if len(names) == 0 {
		names = reg.Names()
	}
	for _, n := range names {
		if _, ok := reg[n]; !ok {
			hint := suggest.Hint(n, reg.Names(), 1)
			return &exitError{Code: exitInvalid, Err: fmt.Errorf("checks: unknown type %q%s (want one of %s)", n, hint, strings.Join(reg.Names(), ", "))}
		}
	}
	for i, n := range names {
		if i > 0 {
			fmt.Fprintln(g.Stdout)
		}
		writeCheckDoc(g.Stdout, n, reg[n])
	}
	return nil
}

// writeCheckDoc prints one type: summary, params table and an example
// inline check.
func writeCheckDoc(w io.Writer, name string, def score.Definition) {
	doc := def.Doc
	fmt.Fprintf(w, "%s\n  %s\n", name, sanitize.EscapeText(doc.Summary))
	if def.NeedsJudge {
		fmt.Fprintf(w, "  Needs a judge; default threshold 0.9.\n")
	}
	if len(def.Needs) > 0 {
		need := "  Needs the question's " + strings.Join(def.Needs, ", ")
		if def.NeedsUnless != "" {
			need += fmt.Sprintf(" unless the %q param is given", def.NeedsUnless)
		}
		fmt.Fprintln(w, need+".")
	}
	if len(doc.Params) == 0 {
		fmt.Fprintln(w, "  Params: none.")
	}
	width := 0
	for _, p := range doc.Params {
		width = max(width, len(p.Name))
	}
	for _, p := range doc.Params {
		req := "optional"
		switch {
		case p.Required:
			req = "required"
		case len(doc.OneOf) > 0 && containsName(doc.OneOf, p.Name):
			req = "one of " + strings.Join(doc.OneOf, "|")
		}
		fmt.Fprintf(w, "  %-*s  %-16s  %-19s  %s\n", width, p.Name, p.JSONType(), req, p.Description)
	}
	fmt.Fprintf(w, "  Example check: %s\n", exampleCheck(name, doc.Example))
}

func containsName(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// exampleCheck is the inline check {"type": name, ...example params}.
func exampleCheck(name string, example json.RawMessage) string {
	var b bytes.Buffer
	fmt.Fprintf(&b, `{"type": %q`, name)
	if len(example) > 0 {
		inner := bytes.TrimSpace(example)
		inner = bytes.TrimSpace(inner[1 : len(inner)-1])
		if len(inner) > 0 {
			b.WriteString(", ")
			b.Write(inner)
		}
	}
	b.WriteString("}")
	return b.String()
}

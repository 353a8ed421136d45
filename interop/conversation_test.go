package interop_test

import (
	"strings"
	"testing"
)

// A conversation run is an ordinary run to the gem: ActiveRecord reads
// one case row per conversation through the gem's models, its output the
// last reply, every turn's check a metric row, and the whole transcript
// (each turn's messages, checks, actions and usage) in response_metadata.
func TestConversationRunReadByRails(t *testing.T) {
	e := newEnv(t)
	e.mustEvalrun(t, "db:migrate")
	s := writeSuite(t, `{"suite": "Conversation", "agent": {"name": "A", "command": ["sh", "-c",
	  "input=$(cat); case \"$input\" in *'\"turn\":3'*) n=third;; *'\"turn\":2'*) n=second;; *) n=first;; esac; printf '{\"output\": \"%s answer\", \"actions\": [{\"name\": \"%s\"}], \"input_tokens\": 5}' $n $n"]},
	  "questions": [{"id": "chat", "turns": ["Hello", {"content": "And then?", "checks": [{"type": "contains", "value": "second"}]}, "Bye"],
	    "checks": [{"type": "contains", "value": "third"}]}]}`)
	if code, out := e.evalrun(t, "run", s); code != 0 {
		t.Fatalf("run: exit %d\n%s", code, out)
	}
	d := parseDump(t, e.ruby(t, "dump"))
	if len(d.Runs) != 1 {
		t.Fatalf("Ruby reads %d runs, want 1", len(d.Runs))
	}
	cases := d.Runs[0]["cases"].([]any)
	if len(cases) != 1 {
		t.Fatalf("Ruby reads %d case rows, want one for the conversation", len(cases))
	}
	c := cases[0].(map[string]any)
	if c["status"] != "passed" || c["output"] != "third answer" || c["input_tokens"] != float64(15) {
		t.Errorf("Ruby reads status %v, output %v, input_tokens %v; want passed, the last reply and 15 (3 turns)", c["status"], c["output"], c["input_tokens"])
	}
	var names []string
	for _, m := range c["metrics"].([]any) {
		names = append(names, m.(map[string]any)["name"].(string))
	}
	if strings.Join(names, ",") != "contains,turn2.contains" {
		t.Errorf("Ruby reads metric rows %v, want contains,turn2.contains", names)
	}
	if actions, _ := c["actions"].([]any); len(actions) != 3 {
		t.Errorf("Ruby reads actions %v, want the 3 turns' actions", c["actions"])
	}
	meta, _ := c["response_metadata"].(map[string]any)
	tr, _ := meta["transcript"].(map[string]any)
	turns, _ := tr["turns"].([]any)
	if tr["stop_reason"] != "script_end" || len(turns) != 3 {
		t.Fatalf("Ruby reads transcript %v, want 3 turns ended by the script", meta["transcript"])
	}
	second := turns[1].(map[string]any)
	checks, _ := second["checks"].([]any)
	if second["user"] != "And then?" || second["output"] != "second answer" || len(checks) != 1 ||
		checks[0].(map[string]any)["passed"] != true {
		t.Errorf("Ruby reads turn 2 as %v", second)
	}
}

package runner

import (
	"fmt"
	"math"

	yamlv2 "go.yaml.in/yaml/v2"
	"sigs.k8s.io/yaml"
)

// yamlToJSON converts a YAML suite to JSON. Values that JSON cannot carry
// (.nan, .inf, non-string keys that would collide) are reported with their
// path before conversion.
func yamlToJSON(p problems, data []byte) ([]byte, bool) {
	var tree any
	if err := yamlv2.Unmarshal(data, &tree); err != nil {
		p.add("$", "want valid YAML: %v", err)
		return nil, false
	}
	before := len(*p.list)
	yamlPortable(p, "$", tree)
	if len(*p.list) > before {
		return nil, false
	}
	out, err := yaml.YAMLToJSON(data)
	if err != nil {
		p.add("$", "want valid YAML: %v", err)
		return nil, false
	}
	return out, true
}

func yamlPortable(p problems, path string, v any) {
	switch t := v.(type) {
	case map[any]any:
		for k, val := range t {
			yamlPortable(p, child(path, fmt.Sprint(k)), val)
		}
	case []any:
		for i, val := range t {
			yamlPortable(p, index(path, i), val)
		}
	case float64:
		if math.IsNaN(t) || math.IsInf(t, 0) {
			p.add(path, "want a finite number, got %v: %v", t, errNotPortable)
		}
	}
}

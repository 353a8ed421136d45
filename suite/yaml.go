package suite

import (
	"fmt"
	"math"

	yamlv2 "go.yaml.in/yaml/v2"
	"sigs.k8s.io/yaml"
)

// yamlToJSON converts a YAML suite to JSON. Values that JSON cannot carry
// (.nan, .inf, duplicate keys, including keys that only collide once
// turned into strings) are reported with their path before conversion.
func yamlToJSON(p Problems, data []byte) ([]byte, bool) {
	var tree yamlv2.MapSlice // keeps duplicate keys, and nested maps as MapSlice
	if err := yamlv2.Unmarshal(data, &tree); err != nil {
		var anything any
		if yamlv2.Unmarshal(data, &anything) == nil {
			p.add("$", "want an object (a YAML mapping) at the top level")
		} else {
			p.add("$", "want valid YAML: %v", err)
		}
		return nil, false
	}
	before := len(*p.List)
	yamlPortable(p, "$", tree)
	if len(*p.List) > before {
		return nil, false
	}
	out, err := yaml.YAMLToJSON(data)
	if err != nil {
		p.add("$", "want valid YAML: %v", err)
		return nil, false
	}
	return out, true
}

func yamlPortable(p Problems, path string, v any) {
	switch t := v.(type) {
	case yamlv2.MapSlice:
		seen := map[string]bool{}
		for _, item := range t {
			key := fmt.Sprint(item.Key)
			kp := child(path, key)
			if seen[key] {
				p.add(kp, "duplicate key: %v", errNotPortable)
			}
			seen[key] = true
			yamlPortable(p, kp, item.Value)
		}
	case []any:
		for i, val := range t {
			yamlPortable(p, Index(path, i), val)
		}
	case float64:
		if math.IsNaN(t) || math.IsInf(t, 0) {
			p.add(path, "want a finite number, got %v: %v", t, errNotPortable)
		}
	}
}

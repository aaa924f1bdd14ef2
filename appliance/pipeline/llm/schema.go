package llm

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
)

// Schema is the subset of JSON Schema that strict structured outputs accept
// everywhere Hearth cares about (OpenAI strict mode, Ollama, llama.cpp's
// grammar conversion, vLLM's guided decoding): typed values, objects whose
// properties are all required and closed, arrays, string enums and
// nullable types. Keeping to the subset is what makes one schema work on
// every server.
//
// The same value validates the reply (Validate), so the schema sent and the
// schema checked can never drift apart.
type Schema struct {
	// Type is object, array, string, integer, number or boolean.
	Type        string
	Description string
	// Nullable adds "null" to the type: strict mode has no optional
	// properties, so "may be absent" is spelled "may be null".
	Nullable bool
	// Enum constrains generation of a string. Validate does not enforce it:
	// callers coerce unknown values (an invalid category becomes "other")
	// rather than throw away an otherwise good reply.
	Enum []string
	// Properties of an object, in the order the model should write them:
	// models generate in schema order, so a summary placed before the title
	// lets the title draw on it. All are required (strict mode).
	Properties []Property
	// Items is the schema of an array's elements.
	Items *Schema
}

// Property is one named member of an object schema.
type Property struct {
	Name   string
	Schema *Schema
}

// MarshalJSON renders the wire form: objects get "required" listing every
// property and "additionalProperties": false, as strict mode demands.
func (s *Schema) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	b.WriteString(`{"type":`)
	if s.Nullable {
		fmt.Fprintf(&b, `[%q,"null"]`, s.Type)
	} else {
		fmt.Fprintf(&b, "%q", s.Type)
	}
	if s.Description != "" {
		d, err := json.Marshal(s.Description)
		if err != nil {
			return nil, err
		}
		b.WriteString(`,"description":`)
		b.Write(d)
	}
	if len(s.Enum) > 0 {
		e, err := json.Marshal(s.Enum)
		if err != nil {
			return nil, err
		}
		b.WriteString(`,"enum":`)
		b.Write(e)
	}
	switch s.Type {
	case "object":
		b.WriteString(`,"properties":{`)
		names := make([]string, len(s.Properties))
		for i, p := range s.Properties {
			if i > 0 {
				b.WriteByte(',')
			}
			ps, err := p.Schema.MarshalJSON()
			if err != nil {
				return nil, err
			}
			fmt.Fprintf(&b, "%q:", p.Name)
			b.Write(ps)
			names[i] = p.Name
		}
		req, err := json.Marshal(names)
		if err != nil {
			return nil, err
		}
		b.WriteString(`},"required":`)
		b.Write(req)
		b.WriteString(`,"additionalProperties":false`)
	case "array":
		if s.Items != nil {
			is, err := s.Items.MarshalJSON()
			if err != nil {
				return nil, err
			}
			b.WriteString(`,"items":`)
			b.Write(is)
		}
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

// Validate checks a value decoded with json.Decoder.UseNumber against s:
// types, nullability and required properties. Unknown extra properties are
// ignored (they cannot hurt the typed decode that follows). Errors name the
// JSON path, never the value, so they are safe to log.
func (s *Schema) Validate(v any) error { return s.validate("$", v) }

func (s *Schema) validate(path string, v any) error {
	if v == nil {
		if s.Nullable {
			return nil
		}
		return fmt.Errorf("%s: is null, want %s", path, s.Type)
	}
	switch s.Type {
	case "object":
		m, ok := v.(map[string]any)
		if !ok {
			return typeErr(path, s.Type, v)
		}
		for _, p := range s.Properties {
			pv, present := m[p.Name]
			if !present {
				return fmt.Errorf("%s: missing required property %q", path, p.Name)
			}
			if err := p.Schema.validate(path+"."+p.Name, pv); err != nil {
				return err
			}
		}
	case "array":
		a, ok := v.([]any)
		if !ok {
			return typeErr(path, s.Type, v)
		}
		if s.Items != nil {
			for i, e := range a {
				if err := s.Items.validate(path+"["+strconv.Itoa(i)+"]", e); err != nil {
					return err
				}
			}
		}
	case "string":
		if _, ok := v.(string); !ok {
			return typeErr(path, s.Type, v)
		}
	case "integer", "number":
		// Both accept any number: a model writing 45.0 minutes has still
		// answered the question, and the caller rounds.
		if _, ok := v.(json.Number); !ok {
			return typeErr(path, s.Type, v)
		}
	case "boolean":
		if _, ok := v.(bool); !ok {
			return typeErr(path, s.Type, v)
		}
	default:
		return fmt.Errorf("%s: schema has unsupported type %q", path, s.Type)
	}
	return nil
}

func typeErr(path, want string, v any) error {
	got := "value"
	switch v.(type) {
	case map[string]any:
		got = "object"
	case []any:
		got = "array"
	case string:
		got = "string"
	case json.Number:
		got = "number"
	case bool:
		got = "boolean"
	}
	return fmt.Errorf("%s: is %s, want %s", path, got, want)
}

// Schema constructors keep the extractor's schemas readable.
func str(desc string) *Schema { return &Schema{Type: "string", Description: desc} }

func obj(props ...Property) *Schema { return &Schema{Type: "object", Properties: props} }

func arr(items *Schema, desc string) *Schema {
	return &Schema{Type: "array", Items: items, Description: desc}
}

func prop(name string, s *Schema) Property { return Property{Name: name, Schema: s} }

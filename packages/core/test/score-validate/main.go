// Validates workload files against a JSON schema as Score's reference library does (score-go v1.12.0,
// schema/validate.go: the YAML decoded by gopkg.in/yaml.v3, then validated by santhosh-tekuri/jsonschema/v5), so that
// test/score-workload.test.ts compares the framework's validator with the one Score's own tools use.
//
//	go run . <schema.json> <workload.yaml>...
//
// Prints one line a file: its path, a tab, and "valid" or "invalid".
package main

import (
	"fmt"
	"os"

	"github.com/santhosh-tekuri/jsonschema/v5"
	"gopkg.in/yaml.v3"
)

func main() {
	schema, err := jsonschema.Compile(os.Args[1])
	if err != nil {
		fmt.Fprintln(os.Stderr, "compiling the schema:", err)
		os.Exit(2)
	}
	for _, file := range os.Args[2:] {
		source, err := os.ReadFile(file)
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(2)
		}
		var workload interface{}
		if err := yaml.Unmarshal(source, &workload); err != nil {
			fmt.Printf("%s\tinvalid\n", file)
			continue
		}
		if err := schema.Validate(workload); err != nil {
			fmt.Printf("%s\tinvalid\n", file)
		} else {
			fmt.Printf("%s\tvalid\n", file)
		}
	}
}

package main

import (
	"debug/elf"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestStaticCXXLinksTheRuntimeIn: the flags scripts/static-cxx.sh prints,
// which make build gives the final link of bin/hearth, make a program that
// asks for -lstdc++ and -fopenmp by name (as whisper.cpp's Go bindings do)
// carry libstdc++, libgomp and libgcc inside it, so that the dynamic loader
// does not map them at each start; and the program still runs, its OpenMP
// threads and C++ strings included.
func TestStaticCXXLinksTheRuntimeIn(t *testing.T) {
	t.Parallel()
	for _, tool := range []string{"gcc", "g++"} {
		if _, err := exec.LookPath(tool); err != nil {
			if os.Getenv("HEARTH_REQUIRE_E2E_TOOLS") != "" {
				t.Fatalf("%s is not installed (scripts/deps.sh installs it)", tool)
			}
			t.Skipf("%s is not installed", tool)
		}
	}
	root := copyScripts(t, "static-cxx.sh", "cache.sh")
	script := exec.Command("bash", "scripts/static-cxx.sh")
	script.Dir = root
	script.Env = append(os.Environ(), "HEARTH_BUILD_CACHE="+filepath.Join(root, "cache"), "CC=gcc")
	out, err := script.Output()
	if err != nil {
		t.Fatalf("static-cxx.sh: %v", err)
	}
	flags := strings.Fields(string(out))
	if len(flags) == 0 {
		t.Fatal("static-cxx.sh printed no flags: gcc has no libstdc++.a or libgomp.a (g++ and gcc install them)")
	}

	src := filepath.Join(root, "prog.cpp")
	if err := os.WriteFile(src, []byte(`#include <string>
#include <cstdio>
#include <omp.h>
int main() {
	int n = 0;
	#pragma omp parallel reduction(+:n)
	n += 1;
	std::string s = std::to_string(n > 0 ? 1 : 0);
	std::printf("%s\n", s.c_str());
	return 0;
}
`), 0o644); err != nil {
		t.Fatal(err)
	}
	obj, bin := filepath.Join(root, "prog.o"), filepath.Join(root, "prog")
	if b, err := exec.Command("g++", "-fopenmp", "-c", "-o", obj, src).CombinedOutput(); err != nil {
		t.Fatalf("g++: %v\n%s", err, b)
	}
	link := append([]string{"-o", bin, obj, "-lstdc++", "-lm", "-fopenmp"}, flags...)
	if b, err := exec.Command("gcc", link...).CombinedOutput(); err != nil {
		t.Fatalf("gcc %s: %v\n%s", strings.Join(link, " "), err, b)
	}
	f, err := elf.Open(bin)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	needed, err := f.ImportedLibraries()
	if err != nil {
		t.Fatal(err)
	}
	for _, lib := range needed {
		for _, runtime := range []string{"libstdc++", "libgomp", "libgcc_s"} {
			if strings.HasPrefix(lib, runtime) {
				t.Errorf("linked with %v, the program still needs %s (all: %v)", flags, lib, needed)
			}
		}
	}
	got, err := exec.Command(bin).Output()
	if err != nil || strings.TrimSpace(string(got)) != "1" {
		t.Fatalf("the program linked with the runtime inside ran: %q, %v", got, err)
	}
}

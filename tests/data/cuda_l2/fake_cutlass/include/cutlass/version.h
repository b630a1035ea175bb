// A stand-in for CUTLASS's version header, for the importer's tests: the
// test files include no CUTLASS header, but the importer finds and hashes
// a CUTLASS folder for every set (docs/importer.md).
#pragma once
#define CUTLASS_MAJOR 4
#define CUTLASS_MINOR 2
#define CUTLASS_PATCH 1

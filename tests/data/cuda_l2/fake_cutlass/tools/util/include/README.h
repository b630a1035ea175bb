// empty: the test files include nothing from tools/util

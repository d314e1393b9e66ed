// fbanim command line: in progress

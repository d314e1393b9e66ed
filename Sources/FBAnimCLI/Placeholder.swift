// FBAnimCLI: in progress

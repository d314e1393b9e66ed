// fbanim: loader animations on small Linux screens. Everything lives in FBAnimCLI.
import FBAnimCLI

FBAnimCommand.exit(FBAnimCommand.main(CommandLine.arguments))

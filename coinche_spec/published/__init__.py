"""Published results: real implementations run through the suite, written as pages (docs/implementations/)."""

// Placeholder translation unit until the kernel emitter lands.

// Jest stand-in for CSS and image imports: components only need a value to exist.
module.exports = 'asset';

# The Python package (python/drape, docs/python.md): installed into DRAPE_PYTHON_DIR under the
# prefix, with _installed.py telling it where libdrape.so.0 went relative to itself.
set(DRAPE_PYTHON_DIR "lib/python3/dist-packages" CACHE STRING "Where make install puts the drape Python package (relative to the prefix)")
file(RELATIVE_PATH DRAPE_PY_TO_LIB ${CMAKE_INSTALL_PREFIX}/${DRAPE_PYTHON_DIR}/drape ${CMAKE_INSTALL_FULL_LIBDIR})
file(RELATIVE_PATH DRAPE_PY_TO_SCENES ${CMAKE_INSTALL_PREFIX}/${DRAPE_PYTHON_DIR}/drape ${CMAKE_INSTALL_FULL_DATADIR}/drape/scenes)
file(WRITE ${CMAKE_BINARY_DIR}/python/_installed.py
  "# Written by make install: libdrape.so.0 and the scenes relative to this package.\nLIBRARY = \"${DRAPE_PY_TO_LIB}/libdrape.so.${PROJECT_VERSION_MAJOR}\"\nSCENES = \"${DRAPE_PY_TO_SCENES}\"\n")
file(WRITE ${CMAKE_BINARY_DIR}/python/_version.py "VERSION = \"${PROJECT_VERSION}\"\n")
file(WRITE ${CMAKE_SOURCE_DIR}/python/drape/_version.py "VERSION = \"${PROJECT_VERSION}\"\n")
install(DIRECTORY ${CMAKE_SOURCE_DIR}/python/drape DESTINATION ${DRAPE_PYTHON_DIR}
  FILES_MATCHING PATTERN "*.py" PATTERN "__pycache__" EXCLUDE PATTERN "_installed.py" EXCLUDE)
install(FILES ${CMAKE_BINARY_DIR}/python/_installed.py DESTINATION ${DRAPE_PYTHON_DIR}/drape)
